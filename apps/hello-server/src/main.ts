#!/usr/bin/env node
import { startApp } from '@toolsets/core';
import { buildServers } from './servers';

startApp(buildServers);
