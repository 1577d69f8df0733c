/**
 * Sample form schemas (`elicitation/create`) for the TUI's elicitation tests. Plain copies, on
 * purpose: the protocol's example corpus and the scripted agent (plain JS) keep their own.
 */
import type { ElicitationSchema } from '@acp-kit/protocol';

/** A single select with titled choices, one of them described. */
const ENVIRONMENT = {
  type: 'string',
  title: 'Environment',
  oneOf: [
    { const: 'staging', title: 'Staging' },
    { const: 'production', title: 'Production', description: 'Live traffic' },
  ],
  default: 'staging',
};

/** The deploy form of the protocol's example corpus: every field type. */
export const CORPUS_DEPLOY_FORM = {
  type: 'object',
  title: 'Deployment',
  description: 'Where and how to deploy',
  properties: {
    environment: ENVIRONMENT,
    branch: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[\\w./-]+$', default: 'main' },
    contact: { type: 'string', format: 'email' },
    color: { type: 'string', enum: ['red', 'green'] },
    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 2 },
    ratio: { type: 'number', minimum: 0, maximum: 1, default: 0.5 },
    confirm: { type: 'boolean', title: 'I understand', default: false },
    regions: {
      type: 'array',
      items: { type: 'string', enum: ['eu-west-1', 'us-east-1'] },
      minItems: 1,
      default: ['eu-west-1'],
    },
    teams: {
      type: 'array',
      title: 'Teams to notify',
      items: {
        anyOf: [
          { const: 'infra', title: 'Infrastructure' },
          { const: 'web', title: 'Web' },
        ],
      },
      maxItems: 2,
    },
  },
  required: ['environment', 'confirm'],
} as ElicitationSchema;

/**
 * The deploy form the scripted agent asks for, with a description, an email and a ratio added
 * (and "Notify the team" ticked by default): every field has a title.
 */
export const SCENARIO_DEPLOY_FORM = {
  type: 'object',
  title: 'Deployment',
  description: 'Where and how to deploy',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Who deploys', minLength: 2 },
    email: { type: 'string', title: 'Email', format: 'email' },
    replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 10, default: 2 },
    ratio: { type: 'number', title: 'Ratio', minimum: 0, maximum: 1 },
    environment: ENVIRONMENT,
    regions: {
      type: 'array',
      title: 'Regions',
      items: { type: 'string', enum: ['eu-west-1', 'us-east-1'] },
      minItems: 1,
    },
    notify: { type: 'boolean', title: 'Notify the team', default: true },
  },
  required: ['name', 'environment', 'regions'],
} as ElicitationSchema;
