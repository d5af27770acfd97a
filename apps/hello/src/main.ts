import 'reflect-metadata';
import { buildServer, startApp } from '@toolsets/core';
import { HelloToolset } from '@toolsets/hello';

startApp(() => buildServer({ name: 'hello', version: '0.1.0', toolsets: [HelloToolset] }));
