#!/usr/bin/env node
// The repository's launcher: runs the TypeScript CLI from its sources through tsx (the tests and a
// clone use it). The installed package's bin is the compiled dist/cli/main.js (npm run build).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
