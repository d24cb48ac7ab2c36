// `npm run amber -- <command>`: the command line over the same core as the app. See `runCli`.
import { enableCompileCache } from 'node:module';

// Type-stripped sources and their compiled code are kept between runs (Node's compile cache, the folder
// `npm run serve` and the plugin processes use): a warm start neither strips the TypeScript again nor compiles
// it, about half of what a command such as `import-pi` took. Enabled before the core's modules are loaded.
enableCompileCache();
const { runCli } = await import('./run-cli.ts');

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
