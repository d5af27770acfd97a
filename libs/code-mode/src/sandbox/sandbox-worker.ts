import { parentPort } from 'node:worker_threads';
import { QuickJsRunner } from './quickjs-runner';
import type { InnerCallAnswer } from './sandbox-outcome';
import type { FromWorker, ToWorker } from './sandbox-messages';

/**
 * A sandbox worker thread: runs one program at a time in QuickJS, its inner calls sent to the
 * server thread as messages and answered the same way. It holds nothing of the server: no
 * credentials, no toolsets, no sockets, only the program, the tool names and the answers.
 */
const port = parentPort!;
const runner = new QuickJsRunner();
const waiting = new Map<number, (answer: InnerCallAnswer) => void>();
let nextCall = 0;
const send = (message: FromWorker) => port.postMessage(message);

port.on('message', (message: ToWorker) => {
  if (message.type === 'answer') {
    waiting.get(message.callId)?.(message.answer);
    waiting.delete(message.callId);
    return;
  }
  const { runId, program, namespaces, limits } = message;
  const host = {
    namespaces,
    call: (namespace: string, tool: string, args: unknown) =>
      new Promise<InnerCallAnswer>((resolve) => {
        const callId = ++nextCall;
        waiting.set(callId, resolve);
        send({ type: 'call', runId, callId, namespace, tool, argsJson: JSON.stringify(args) });
      }),
  };
  void runner.run(program, host, limits).then((outcome) =>
    send(outcome.ok ? { type: 'outcome', runId, outcome: { ...outcome, value: null }, valueJson: JSON.stringify(outcome.value) } : { type: 'outcome', runId, outcome }),
  );
});
send({ type: 'ready' });
