import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { BUNDLED_PLUGINS } from './src/main/plugins/bundled-plugins.ts';

// Plugin processes run built JS in the desktop app: the plugin host and each bundled plugin are entries of
// the main build (out/main/plugin-host.js, out/main/plugins/<id>/index.js + its manifest.json).
const pluginEntries = Object.fromEntries(BUNDLED_PLUGINS.map((id) => [`plugins/${id}/index`, resolve(import.meta.dirname, `src/plugins/${id}/index.ts`)]));
const pluginManifests = {
  name: 'amber-plugin-manifests',
  generateBundle(this: { emitFile(file: { type: 'asset'; fileName: string; source: string }): void }) {
    for (const id of BUNDLED_PLUGINS) {
      this.emitFile({
        type: 'asset',
        fileName: `plugins/${id}/manifest.json`,
        source: readFileSync(resolve(import.meta.dirname, `src/plugins/${id}/manifest.json`), 'utf8'),
      });
    }
  },
};

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/index.ts'),
          'plugin-host': resolve(import.meta.dirname, 'src/workers/plugin-host/plugin-host-main.ts'),
          ...pluginEntries,
          // The workspace search plugin's symbol worker: a worker thread's script, loaded beside the plugin's index.js.
          'plugins/workspace-search/symbol-worker': resolve(import.meta.dirname, 'src/plugins/workspace-search/symbol-worker.ts'),
        },
      },
    },
    plugins: [pluginManifests],
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        // A CommonJS preload keeps `sandbox: true` possible.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    build: {
      rollupOptions: { input: resolve(import.meta.dirname, 'src/renderer/index.html') },
    },
    plugins: [react()],
  },
});
