// `npm run amber -- <command>`: the command line over the same core as the app. See `runCli`.
import { runCli } from './run-cli.ts';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
