// @ts-check
// Preloaded with --import into a measured child: writes its peak RSS (KiB) to BENCH_RSS_FILE at exit.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
