import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

// Streamable HTTP on http://127.0.0.1:8000/mcp (HOST, PORT override), or stdio with --stdio.
// AUTH_ISSUER (and PUBLIC_URL off loopback) turns on access-token checks: see docs/authorization.md.
startApp(buildServers);
