import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { projectRoot } from '../../server/src/paths.js';

/**
 * deploy/k8s rendered as `kubectl apply -k` would (kubectl's built-in kustomize, offline), and every
 * object validated against Kubernetes' own OpenAPI schemas (the `kubernetes-models` package), then
 * read for what running Cohort in a cluster needs.
 */

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}
interface Container {
  args?: string[];
  image: string;
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface PodSpec {
  containers: Container[];
}

const hasKubectl = !spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).error;

/** The model class kubernetes-models has for an object's apiVersion and kind. */
async function modelFor(object: K8sObject) {
  const module = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const Model = module[object.kind];
  if (!Model) throw new Error(`kubernetes-models has no ${object.apiVersion} ${object.kind}`);
  return Model;
}

describe.skipIf(!hasKubectl)('the Kubernetes manifests (overlays/production)', () => {
  let objects: K8sObject[];
  const find = (kind: string, name?: string) =>
    objects.filter((o) => o.kind === kind && (!name || o.metadata.name === name));
  const one = (kind: string, name?: string) => {
    const [found, ...more] = find(kind, name);
    if (!found || more.length > 0) throw new Error(`expected one ${kind} ${name ?? ''}`);
    return found;
  };
  const podSpec = (object: K8sObject) =>
    (object.spec as { template: { spec: PodSpec } }).template.spec;

  beforeAll(() => {
    const rendered = spawnSync(
      'kubectl',
      ['kustomize', join(projectRoot, 'deploy/k8s/overlays/production')],
      { encoding: 'utf8' },
    );
    if (rendered.status !== 0) throw new Error(`kubectl kustomize failed:\n${rendered.stderr}`);
    objects = parseAllDocuments(rendered.stdout).map((doc) => doc.toJS() as K8sObject);
  });

  it('validates every object against Kubernetes’ schemas', async () => {
    expect(objects.length).toBeGreaterThanOrEqual(10);
    for (const object of objects) {
      const Model = await modelFor(object);
      expect(
        () => new Model(object).validate(),
        `${object.kind} ${object.metadata.name}`,
      ).not.toThrow();
    }
    // The validation does bite: a Deployment without containers is refused.
    const deployment = structuredClone(one('Deployment'));
    delete (deployment.spec as { template?: unknown }).template;
    const Model = await modelFor(deployment);
    expect(() => new Model(deployment).validate()).toThrow();
  });

  it('runs the app with probes, resources, no root and a read-only filesystem, in the namespace', () => {
    for (const object of objects.filter((o) => o.kind !== 'Namespace')) {
      expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe('cohort');
    }
    const deployment = one('Deployment', 'cohort-app');
    expect(deployment.spec?.replicas).toBe(3);
    const [app] = podSpec(deployment).containers;
    expect(app?.image).toBe('registry.example.com/cohort/app:0.1.0');
    expect(app?.args).toEqual(['serve']);
    expect(app?.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(app?.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(app?.resources?.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(app?.resources?.limits).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(app?.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    expect(one('PodDisruptionBudget').spec?.minAvailable).toBe(1);
    expect(one('HorizontalPodAutoscaler').spec).toMatchObject({ minReplicas: 3, maxReplicas: 10 });
  });

  it('migrates in a Job of its own, and the servers only check (MIGRATE_ON_START=false)', () => {
    const job = one('Job', 'cohort-migrate');
    const [migrate] = podSpec(job).containers;
    expect(migrate?.args).toEqual(['migrate']);
    expect(migrate?.image).toBe('registry.example.com/cohort/app:0.1.0');
    const config = one('ConfigMap');
    expect(config.data).toMatchObject({
      MIGRATE_ON_START: 'false',
      SITE_URL: 'https://members.example.com',
    });
    // The Deployment reads that very ConfigMap (kustomize's hashed name).
    const [app] = podSpec(one('Deployment')).containers;
    expect(app?.envFrom?.[0]?.configMapRef?.name).toBe(config.metadata.name);
  });

  it('holds no secret: the Secret is the operator’s, referenced by name', () => {
    expect(find('Secret')).toEqual([]);
    for (const workload of [one('Deployment'), one('Job')]) {
      for (const container of podSpec(workload).containers) {
        for (const variable of container.env ?? []) {
          expect(variable.value, variable.name).toBeUndefined();
          expect(variable.valueFrom?.secretKeyRef?.name, variable.name).toBe('cohort-secrets');
        }
      }
    }
  });

  it('routes through ingress-nginx with nginx.conf’s limits, and keeps /metrics in', () => {
    const ingresses = find('Ingress');
    for (const ingress of ingresses) {
      expect((ingress.spec as { ingressClassName: string }).ingressClassName).toBe('nginx');
      const rules = (ingress.spec as { rules: { host: string }[] }).rules;
      expect(rules.map((rule) => rule.host)).toEqual(['members.example.com']);
    }
    const annotations = (name: string) => one('Ingress', name).metadata.annotations ?? {};
    expect(annotations('cohort')['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('64k');
    expect(annotations('cohort-desk-posts')['nginx.ingress.kubernetes.io/proxy-body-size']).toBe(
      '650k',
    );
    expect(annotations('cohort-webhooks')['nginx.ingress.kubernetes.io/proxy-body-size']).toBe(
      '1m',
    );
    // An import's file streams to the app, which refuses more than IMPORT_MAX_MB as it reads.
    expect(annotations('cohort-desk-imports')).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-body-size': '2048m',
      'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off',
    });
    // So does an upload: the app refuses more than the limit of the file's kind as it reads.
    expect(annotations('cohort-desk-uploads')).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-body-size': '2048m',
      'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off',
    });
    expect(annotations('cohort-limited')['nginx.ingress.kubernetes.io/limit-rpm']).toBeTruthy();
    // As nginx.conf's cohort_events zone: made-up page views meet a limit before the app.
    expect(annotations('cohort-events')['nginx.ingress.kubernetes.io/limit-rpm']).toBe('240');
    expect(annotations('cohort-metrics-closed')).toMatchObject({
      'nginx.ingress.kubernetes.io/whitelist-source-range': '127.0.0.1/32',
    });
    const policy = one('NetworkPolicy');
    expect(policy.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
  });
});
