// V8's background threads at the lowest priority, the command's main thread as it is.
//
// V8 starts a pool of background threads with the process (four, whatever the machine): its
// optimising compiler and its garbage collector's helpers run there. The main thread sends, checks
// and writes the reports: it is a run's critical path. On a small machine the pool's threads take
// the cores from it: measured on 2 cores against a local service, V8's threads used 1.3–1.6 s of
// CPU in a 2.4 s run, almost all of it compiling code that runs a few times (issue 43's
// section 13). At nice 19 they run on whatever the main thread leaves; where cores are idle (a
// larger machine) nothing changes. Only threads that exist now are lowered: call it first, before
// the command starts a worker thread (the embedded mock's, the secret guard's) or a process, which
// keep the main thread's priority. Linux only (a thread's priority is set by its id there); elsewhere
// nothing is done. Never fails the command: a thread the system refuses to lower is left as it is.
import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/** How many of this process's threads, other than the main one, were lowered to `priority`. */
export function lowerBackgroundThreads(priority = constants.priority.PRIORITY_LOW) {
  if (process.platform !== 'linux') return 0;
  let tasks;
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  let lowered = 0;
  for (const task of tasks) {
    const id = Number(task);
    if (!Number.isInteger(id) || id === process.pid) continue;
    try {
      setPriority(id, priority);
      lowered++;
    } catch {
      // A thread that ended meanwhile, or a system that refuses: left as it is.
    }
  }
  return lowered;
}
