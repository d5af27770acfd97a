import 'reflect-metadata';
import { buildServer, startApp } from '@toolsets/core';
import { CredentialDemoToolset } from '@toolsets/credential-demo';

startApp(() => buildServer({ name: 'credential-demo', version: '0.1.0', toolsets: [CredentialDemoToolset] }));
