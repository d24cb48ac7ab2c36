// A real model stack for browser flows: the OpenAI-compatible dialect talking to the loopback provider
// server (a real HTTP server on 127.0.0.1 that answers from a script), and a real file-writing tool.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HeadlessOptions } from '../../src/main/headless/headless-shell.ts';
import { createOpenAiCompatibleStream } from '../../src/plugins/openai-compatible/index.ts';
import { type ProviderServer, type Script, startProviderServer } from '../fixtures/provider-server.ts';

export const MODEL = { provider: 'loopback', modelId: 'fixture-model' };

export async function startModel(script: Script = []): Promise<ProviderServer> {
  return startProviderServer({ script });
}

/** Core options that make the headless shell's agent talk to `server`, with a write_file tool confined to `workspace`. */
export function coreFor(server: ProviderServer, workspace: string): NonNullable<HeadlessOptions['core']> {
  const stream = createOpenAiCompatibleStream({ baseUrl: `${server.url}/v1`, flavor: 'custom' });
  return {
    defaultModel: MODEL,
    // New conversations work in `workspace`; the home folder is the test's own, so `~/Amber` is never made in the real one.
    workspace,
    home: dirname(workspace),
    resolveProvider: () => ({
      stream,
      model: { id: MODEL.modelId, contextWindow: 128_000, reasoning: false, pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
    }),
    tools: {
      list: () => [
        {
          name: 'write_file',
          description: 'Writes a text file.',
          parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
          readOnly: false,
          pathParams: ['path'],
        },
      ],
      async execute(name, args, execution) {
        if (name !== 'write_file') throw new Error(`There is no tool named ${name}.`);
        const path = String(args.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, String(args.content));
        execution.onUpdate(`wrote ${String(args.content).length} bytes`);
        return { content: [{ type: 'text', text: `Wrote ${path}.` }], isError: false };
      },
    },
  };
}

/** A test's own temp folder with a `workspace` folder in it, and a loopback model server. */
export interface ModelRig {
  dir: string;
  workspace: string;
  model: ProviderServer;
}

export async function openModelRig(prefix: string): Promise<ModelRig> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  return { dir, workspace, model: await startModel() };
}

/** Closes the window (if one was started), the model server, and removes the temp folder. */
export async function closeModelRig(rig: Pick<ModelRig, 'dir' | 'model'>, amber: { close(): Promise<void> } | null): Promise<void> {
  await amber?.close();
  await rig.model.close();
  rmSync(rig.dir, { recursive: true, force: true });
}
