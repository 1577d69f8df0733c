#!/usr/bin/env node
// The `acp` command: runs the built CLI (npm run build compiles src/ to dist/).
import '../dist/cli.js';
