import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

startApp(buildServers);
