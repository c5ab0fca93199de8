import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { validate as lintDockerfile, ValidationSeverity } from 'dockerfile-utils';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { COMPONENTS } from '../../server/app.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { npmStartArgs } from '../../scripts/serverBuild.js';
import { runCiTool } from '../support/ciTool.js';

/**
 * The deployment artifacts in deploy/ as CI can check them without a cluster or a registry: the kustomize base
 * rendered by kubectl and every object validated against the Kubernetes API's schemas (kubernetes-models), the
 * container file linted (dockerfile-utils, the linter of the Docker language server), and what each artifact
 * must hold for this gateway (roles, settings, hardening) asserted.
 */

/** The schema of each kind the base may use; a kind not here fails, so nothing goes unvalidated. */
const MODELS: Record<string, { validate(): void } & (new (data: never) => { validate(): void })> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
} as never;

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}
type Container = {
  name: string;
  args?: string[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
};
type Probe = { grpc?: { port: number }; httpGet?: { path: string; port: string | number } };
type PodSpec = { containers: Container[]; securityContext?: { runAsNonRoot?: boolean; runAsUser?: number }; volumes?: { name: string }[] };

/** Every variable the gateway reads appears in its configuration module by name. */
const CONFIG_SOURCE = readFileSync('server/config.ts', 'utf8');
const isSetting = (name: string) => new RegExp(`\\b${name}\\b`).test(CONFIG_SOURCE);

let objects: K8sObject[];
const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
const named = (kind: string, name: string) => ofKind(kind).find((object) => object.metadata.name === name);
const podOf = (deployment: K8sObject) => (deployment.spec as { template: { spec: PodSpec } }).template.spec;

beforeAll(() => {
  const kustomize = Number(/Kustomize Version: v(\d+)/.exec(runCiTool('kubectl', ['version', '--client'], 'kubernetes-client'))?.[1] ?? 0);
  if (kustomize < 4) throw new Error(`kubectl's kustomize is v${kustomize}: the base needs v4 or later (labels, patches by target); install a newer kubectl`);
  const rendered = runCiTool('kubectl', ['kustomize', 'deploy/k8s/base'], 'kubernetes-client');
  objects = parseAllDocuments(rendered).map((document) => document.toJS() as K8sObject);
});

describe('the Kubernetes base', () => {
  it('renders, and every object is valid against the Kubernetes API schema of its kind', () => {
    expect(objects.length).toBeGreaterThan(0);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      if (!Model) throw new Error(`${object.apiVersion} ${object.kind} ${object.metadata.name}: no schema here to validate it against; add its model`);
      expect(() => new Model(object as never).validate()).not.toThrow();
    }
  });

  it('catches an object that breaks its schema', () => {
    const deployment = structuredClone(named('Deployment', 'gateway-grpc')!);
    (deployment.spec as { replicas: unknown }).replicas = 'two';
    expect(() => new Deployment(deployment as never).validate()).toThrow(/replicas/);
  });

  it('runs each role of the gateway as its own Deployment, from the same image', () => {
    const roles = Object.fromEntries(ofKind('Deployment').map((deployment) => [deployment.metadata.name, podOf(deployment).containers[0]!.args]));
    expect(roles).toEqual({
      'gateway-grpc': ['grpc'],
      'gateway-connect': ['connect'],
      'gateway-webhooks': ['webhooks'],
      'gateway-workers': ['webhooks'],
    });
    for (const args of Object.values(roles)) for (const role of args!) expect(COMPONENTS).toContain(role);
    const workers = (name: string) => podOf(named('Deployment', name)!).containers[0]!.env?.find((variable) => variable.name === 'WEBHOOK_WORKERS')?.value;
    expect(workers('gateway-webhooks')).toBe('0');
    expect(Number(workers('gateway-workers'))).toBeGreaterThan(0);
    expect(new Set(ofKind('Deployment').map((deployment) => (podOf(deployment).containers[0] as { image?: string }).image)).size).toBe(1);
  });

  it('gives every role probes on ports it declares, resources, hardening and the shared settings', () => {
    for (const deployment of ofKind('Deployment')) {
      const pod = podOf(deployment);
      const [container] = pod.containers;
      const where = deployment.metadata.name;
      expect({ where, runAsNonRoot: pod.securityContext?.runAsNonRoot }).toEqual({ where, runAsNonRoot: true });
      expect(pod.securityContext?.runAsUser).not.toBe(0);
      expect(container!.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      // The read-only root leaves the gateway /data (DATA_DIR) and /tmp to write to.
      expect(container!.volumeMounts?.map((mount) => mount.mountPath).sort()).toEqual(['/data', '/tmp']);
      expect(container!.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(container!.resources?.limits).toMatchObject({ memory: expect.any(String) });
      const ports = container!.ports ?? [];
      for (const probe of [container!.readinessProbe, container!.livenessProbe, container!.startupProbe]) {
        expect(probe).toBeDefined();
        const port = probe!.grpc?.port ?? probe!.httpGet?.port;
        expect(ports.some((declared) => declared.name === port || declared.containerPort === port)).toBe(true);
      }
      expect(ports.find((port) => port.name === 'metrics')?.containerPort).toBe(9464);
      expect(container!.envFrom).toEqual([{ configMapRef: { name: 'gateway-config' } }, { secretRef: { name: 'gateway-secrets' } }]);
      for (const variable of container!.env ?? []) expect(isSetting(variable.name)).toBe(true);
    }
  });

  it('probes the gRPC role through the gRPC health service', () => {
    const container = podOf(named('Deployment', 'gateway-grpc')!).containers[0]!;
    expect(container.readinessProbe?.grpc?.port).toBe(50051);
    expect(container.livenessProbe?.grpc?.port).toBe(50051);
  });

  it('keeps the secrets in a Secret, names only settings the gateway reads, and ships no usable key', () => {
    const secret = named('Secret', 'gateway-secrets') as unknown as { stringData: Record<string, string> };
    expect(Object.keys(secret.stringData)).toEqual(expect.arrayContaining(['SECRETS_KEY', 'OUTBOUND_WEBHOOK_SECRET', 'DATABASE_URL']));
    const config = named('ConfigMap', 'gateway-config') as unknown as { data: Record<string, string> };
    for (const name of [...Object.keys(secret.stringData), ...Object.keys(config.data)]) expect({ name, read: isSetting(name) }).toEqual({ name, read: true });
    // A placeholder deployed by mistake must stop the gateway at start, not seal provider secrets under a known key.
    expect(() => SecretBox.fromEncodedKey(secret.stringData.SECRETS_KEY!)).toThrow(/32 bytes/);
    for (const name of ['SECRETS_KEY', 'OUTBOUND_WEBHOOK_SECRET', 'DATABASE_URL']) expect(config.data[name]).toBeUndefined();
  });

  it('has a disruption budget for every role, and autoscalers for the APIs on CPU and the workers on the backlog', () => {
    const selected = ofKind('PodDisruptionBudget').map(
      (budget) => (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels['app.kubernetes.io/name'],
    );
    expect(selected.sort()).toEqual(
      ofKind('Deployment')
        .map((deployment) => deployment.metadata.name)
        .sort(),
    );
    type Metric = { type: string; resource?: { name: string }; external?: { metric: { name: string } } };
    const scaling = Object.fromEntries(
      ofKind('HorizontalPodAutoscaler').map((hpa) => {
        const spec = hpa.spec as { scaleTargetRef: { name: string }; metrics: Metric[] };
        return [spec.scaleTargetRef.name, spec.metrics.map((metric) => metric.resource?.name ?? metric.external?.metric.name)];
      }),
    );
    expect(scaling).toEqual({ 'gateway-grpc': ['cpu'], 'gateway-connect': ['cpu'], 'gateway-workers': ['gateway_webhook_queue_depth'] });
  });

  it('exposes the APIs and the webhook intake as Services, and the metrics port only to Prometheus', () => {
    const servicePorts = ofKind('Service').flatMap((service) => (service.spec as { ports: { targetPort: string }[] }).ports.map((port) => port.targetPort));
    expect(servicePorts).not.toContain('metrics');
    expect(new Set(servicePorts)).toEqual(new Set(['grpc', 'http', 'webhooks']));
    type Rule = { from?: unknown[]; ports?: { port: string }[] };
    const policies = ofKind('NetworkPolicy').map((policy) => policy.spec as { podSelector: { matchLabels: Record<string, string> }; ingress?: Rule[] });
    // One policy selects every gateway pod and allows nothing: what no other policy allows is refused.
    expect(policies.some((policy) => policy.podSelector.matchLabels['app.kubernetes.io/part-of'] === 'payment-gateway' && !policy.ingress)).toBe(true);
    const rulesFor = (port: string) =>
      policies.flatMap((policy) => (policy.ingress ?? []).filter((rule) => rule.ports?.some((allowed) => allowed.port === port)));
    expect(rulesFor('metrics')).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } }, podSelector: expect.any(Object) }],
        ports: expect.any(Array),
      },
    ]);
    // Only the webhook port is open to any source (providers post there).
    const open = policies.flatMap((policy) => (policy.ingress ?? []).filter((rule) => !rule.from)).flatMap((rule) => rule.ports!.map((port) => port.port));
    expect(open).toEqual(['webhooks']);
  });
});

describe('the container file', () => {
  const dockerfile = readFileSync('deploy/Dockerfile', 'utf8');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.trimStart().startsWith('#'));
  const finalStage = instructions.slice(instructions.findLastIndex((line) => /^FROM\s/i.test(line)));

  it('passes the linter with every rule as an error', () => {
    const strict = {
      deprecatedMaintainer: ValidationSeverity.ERROR,
      directiveCasing: ValidationSeverity.ERROR,
      emptyContinuationLine: ValidationSeverity.ERROR,
      instructionCasing: ValidationSeverity.ERROR,
      instructionCmdMultiple: ValidationSeverity.ERROR,
      instructionEntrypointMultiple: ValidationSeverity.ERROR,
      instructionHealthcheckMultiple: ValidationSeverity.ERROR,
      instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
      instructionWorkdirRelative: ValidationSeverity.ERROR,
    };
    expect(lintDockerfile(dockerfile, strict).map((problem) => `line ${problem.range.start.line + 1}: ${problem.message}`)).toEqual([]);
    expect(lintDockerfile('FROM node:24-slim\nHEALTHCHECK --interval=10 CMD true\nworkdir app\n', strict)).not.toEqual([]);
  });

  it('builds on a pinned Node 24 slim image, in stages, and runs as a user that is not root', () => {
    const bases = instructions.filter((line) => /^FROM\s/i.test(line));
    expect(bases.length).toBeGreaterThan(1);
    for (const from of bases) expect(from).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim\b/);
    expect(dockerfile).toMatch(/^ARG NODE_VERSION=24\.\d+\.\d+$/m);
    const user = finalStage.filter((line) => /^USER\s/i.test(line)).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)\b/);
  });

  it('starts what npm start starts, by role, and checks health with the script it copies', () => {
    const entrypoint = JSON.parse(finalStage.find((line) => line.startsWith('ENTRYPOINT '))!.slice('ENTRYPOINT '.length)) as string[];
    const startArgs = npmStartArgs(process.cwd());
    expect(entrypoint).toEqual(['node', ...startArgs.slice(0, startArgs.indexOf('dist/server/main.js') + 1)]);
    const cmd = JSON.parse(finalStage.find((line) => line.startsWith('CMD '))!.slice('CMD '.length)) as string[];
    for (const role of cmd) expect(COMPONENTS).toContain(role);
    const healthcheck = finalStage.find((line) => line.startsWith('HEALTHCHECK '))!;
    expect(healthcheck).toContain('CMD ["node", "scripts/healthcheck.ts", "grpc"]');
    expect(finalStage.some((line) => /^COPY .*scripts\/healthcheck\.ts/.test(line))).toBe(true);
    expect(existsSync('scripts/healthcheck.ts')).toBe(true);
  });
});

describe('the compose file', () => {
  type ComposeService = {
    build?: { dockerfile: string };
    command?: string[];
    read_only?: boolean;
    user?: string;
    environment?: Record<string, string>;
    healthcheck?: { test: string[] };
  };
  const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const gateways = Object.entries(compose.services).filter(([, service]) => service.build);

  it('runs the roles from deploy/Dockerfile, read-only, not as root, each with its health check', () => {
    expect(gateways.map(([name]) => name)).toEqual(['api', 'webhooks', 'workers']);
    for (const [name, service] of gateways) {
      expect({ name, dockerfile: service.build!.dockerfile, readOnly: service.read_only }).toEqual({ name, dockerfile: 'deploy/Dockerfile', readOnly: true });
      expect(service.user).toMatch(/^[1-9]\d*:[1-9]\d*$/);
      for (const role of service.command!) expect(COMPONENTS).toContain(role);
      const [, node, script, target] = service.healthcheck!.test;
      expect([node, script]).toEqual(['node', 'scripts/healthcheck.ts']);
      expect(['grpc', 'connect', 'webhooks', 'metrics']).toContain(target);
      for (const variable of Object.keys(service.environment ?? {})) expect({ variable, read: isSetting(variable) }).toEqual({ variable, read: true });
    }
    expect(compose.services.webhooks!.environment!.WEBHOOK_WORKERS).toBe('0');
    expect(Number(compose.services.workers!.environment!.WEBHOOK_WORKERS)).toBeGreaterThan(0);
  });

  it('refuses to start without the keys instead of generating them per container', () => {
    const environment = compose.services.api!.environment!;
    for (const name of ['SECRETS_KEY', 'OUTBOUND_WEBHOOK_SECRET', 'API_TOKENS']) expect(environment[name]).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
  });
});
