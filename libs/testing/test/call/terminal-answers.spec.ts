import { PassThrough } from 'node:stream';
import { TerminalAnswers } from '../../src/call/terminal-answers';

describe("toolsets-call's answers at the terminal", () => {
  it("prints a task's status that arrives while a question waits on a line of its own, then the prompt again", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    output.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const answers = new TerminalAnswers(input, output);
    answers.notice('task t1 input_required');
    const answered = answers.elicit({ message: 'Publish it?', requestedSchema: { type: 'object', properties: {} } });
    await new Promise((ready) => setImmediate(ready));
    // The question waits for a line: the status of the task arrives now.
    answers.notice('task t1 input_required: Publish it?');
    input.write('y\n');
    await expect(answered).resolves.toEqual({ action: 'accept', content: {} });
    answers.notice('task t1 working');
    answers.close();
    expect(printed).toBe(
      [
        'task t1 input_required',
        '',
        '? Publish it?',
        '  Answer it? [Y]es / (d)ecline / (c)ancel: ',
        'task t1 input_required: Publish it?',
        '  Answer it? [Y]es / (d)ecline / (c)ancel: y',
        'task t1 working',
        '',
      ].join('\n'),
    );
  });
});
