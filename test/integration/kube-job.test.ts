import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { cli, ROOT, useCliScratch } from '../helpers/cli';

// The Kubernetes Indexed Job of docs/sweeps.md, without a cluster: the manifest is checked
// against the batch/v1 Job schema (kubernetes-models: the API's OpenAPI types, required fields,
// formats — unknown field names are not checked, as the API server only warns about them by
// default), then each pod is played here as the Job would start it — the container's command in
// its workingDir (this checkout) with JOB_COMPLETION_INDEX = 0 … completions − 1 and the volume
// at a scratch folder — and the documented merge command must give the unsharded sweep's bytes.

const tmp = useCliScratch();
const DOC = readFileSync(join(ROOT, 'docs/sweeps.md'), 'utf8');
const section = DOC.split('### Kubernetes: an Indexed Job')[1]?.split('\n### ')[0] ?? '';
const block = (lang: string) => new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? '';

interface Manifest {
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    template: {
      spec: {
        restartPolicy: string;
        containers: { command: string[]; workingDir: string; volumeMounts: { mountPath: string }[] }[];
      };
    };
  };
}
const manifest = () => YAML.parse(block('yaml')) as Manifest;

describe('the Kubernetes Indexed Job recipe (docs/sweeps.md)', () => {
  it('is a valid batch/v1 Job, Indexed, whose pods run the shard mode for every index', () => {
    expect(section, 'docs/sweeps.md has no "Kubernetes: an Indexed Job" section').not.toBe('');
    const doc = manifest();
    expect(() => new Job(doc as never).validate()).not.toThrow();
    // the validator is not a rubber stamp: a wrong type and a missing field are refused
    const wrongType = structuredClone(doc) as unknown as { spec: { completions: unknown } };
    wrongType.spec.completions = 'eight';
    expect(() => new Job(wrongType as never).validate()).toThrow(/completions must be integer/);
    const noName = structuredClone(doc) as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    delete noName.spec.template.spec.containers[0]!.name;
    expect(() => new Job(noName as never).validate()).toThrow(/containers\/0 must have required property name/);

    const { spec } = doc;
    expect(spec.completionMode).toBe('Indexed'); // gives each pod JOB_COMPLETION_INDEX
    expect(spec.template.spec.restartPolicy).toBe('Never'); // a retried shard is a new pod: it resumes from its journal
    const [container] = spec.template.spec.containers;
    const command = container!.command;
    expect(command.slice(0, 3)).toEqual(['sh', 'scripts/sweep-parallel.sh', 'shard']);
    expect(Number(command[4])).toBe(spec.completions); // N shards = the Job's completions
  });

  it("its pods' shards, merged as documented, equal the unsharded sweep byte for byte", () => {
    const { spec } = manifest();
    const [container] = spec.template.spec.containers;
    const mount = container!.volumeMounts[0]!.mountPath; // /data: the shared volume
    const data = join(tmp.dir, 'volume');
    mkdirSync(data, { recursive: true });
    const onVolume = (p: string) => (p.startsWith(mount + '/') ? join(data, p.slice(mount.length + 1)) : p);
    const command = container!.command.map(onVolume);
    // the sweep the Job names: a small one here (the recipe is about the plumbing, not the size)
    copyFileSync(join(ROOT, 'test/fixtures/sweep/tiny.json'), command[3]!);

    for (let index = 0; index < spec.completions; index++) {
      const pod = spawnSync(command[0]!, command.slice(1), {
        cwd: ROOT, // workingDir: the checkout on the volume
        encoding: 'utf8',
        env: { ...process.env, JOB_COMPLETION_INDEX: String(index), SLURM_ARRAY_TASK_ID: '', SHARD_INDEX: '' },
      });
      expect(pod.stderr, `pod ${index}`).toBe('');
      expect(pod.status, `pod ${index}`).toBe(0);
    }
    const mergeLine = block('sh')
      .split('\n')
      .find((l) => l.startsWith('sh scripts/sweep-parallel.sh merge'));
    expect(mergeLine, 'the documented merge command').toBeDefined();
    const merge = mergeLine!.split(/\s+/).map(onVolume);
    const merged = spawnSync(merge[0]!, merge.slice(1), { cwd: ROOT, encoding: 'utf8' });
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);

    const whole = cli('sweep', command[3]!, '--out', join(tmp.dir, 'whole.json'));
    expect(whole.code).toBe(0);
    expect(readFileSync(onVolume(merge[merge.length - 1]!), 'utf8')).toBe(readFileSync(join(tmp.dir, 'whole.json'), 'utf8'));
  });
});
