import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

// npm run events:redrive [-- --stack .local/stack.json]
// Replays the local bus's dead-letter store (`<state>/dead-letters.jsonl`) to each letter's rule
// target, with the rule's retries, as redriving a rule's DLQ does in AWS (docs/operating.md,
// "Replaying events"). A delivered letter leaves the store, so running it again replays nothing
// twice; one that fails again stays in the store for the next run. ADR 0035.

const usage = 'Usage: npm run events:redrive [-- --stack .local/stack.json]';

interface RedriveResult {
  replayed: number;
  delivered: number;
  deadLettered: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      stack: { type: 'string', default: '.local/stack.json' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  let api: string;
  try {
    ({ api } = JSON.parse(await readFile(values.stack, 'utf8')) as { api: string });
  } catch (error) {
    console.error(`Cannot read ${values.stack} (is \`npm start\` running?): ${String(error)}`);
    console.error(
      'In AWS, a rule\'s dead-letter queue is replayed as docs/operating.md "Replaying events" says.',
    );
    return 2;
  }
  const response = await fetch(`${api}/__local/dead-letters/redrive`, { method: 'POST' });
  if (!response.ok) {
    console.error(`Redrive failed: ${response.status} ${await response.text()}`);
    return 1;
  }
  const result = (await response.json()) as RedriveResult;
  console.log(
    `replayed ${result.replayed} dead letter(s): ${result.delivered} delivered, ${result.deadLettered} dead-lettered again`,
  );
  return result.deadLettered > 0 ? 1 : 0;
}

process.exitCode = await main();
