#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Progress of the guest boots a command runs: `make run`'s, `make test`'s,
`make bench`'s.

usage: scripts/progress.py [--title T] [--total N] [--jobs J] [--to FD]
                           [--lines] [--events FILE] -- COMMAND...

Runs COMMAND with IDLESCOPE_PROGRESS set to an events file, relays its
output, and shows what its boots do.  The scheduling stays where it is (GNU
parallel, a test script); this only watches:

- vm/run.sh appends a line to $IDLESCOPE_PROGRESS when a boot starts
  ("start", time, id, name, console log) and when it ends ("end", time, id,
  status, reason), tab-separated; IDLESCOPE_BOOT_NAME names the boot.  A
  progress.py run under another adds its file to the other's (FILE:FILE),
  so both see the boots;
- each running boot's console log is read as it grows for its steps:
  "progress: [I/N ]at S s: TEXT" (tests/lib.sh's progress_step, which
  vm/guest/suite.sh prints before each workload) and the guest test boot's
  "== NAME at S s of guest uptime".

It shows the boots done of --total, the running ones with their name, last
step and guest time, an ETA from the boots already done (before the first
is done, from the running boots' steps, marked "early"), and a line for
each boot that fails, with its status, vm/run.sh's reason and its console
log.  On a terminal (--to's file descriptor, default 1) the status redraws
in place below the command's output; otherwise (a log, CI, --lines) it
prints a line per event: a boot started, a step, a boot done or failed.
At the end, one line: boots done, failed, wall time.  Exits with
COMMAND's status.
"""

import argparse
import heapq
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

STEP_PATTERNS = [
    re.compile(r'^progress: (?:(\d+)/(\d+) )?at (\d+) s: (.*)$'),
    re.compile(r'^== (\S+) at (\d+) s of guest uptime$'),
]
POLL_S = 0.5


def duration(s):
    """7m 12s, 1h 02m, 45s."""
    s = int(round(s))
    if s >= 3600:
        return f'{s // 3600}h {s % 3600 // 60:02d}m'
    if s >= 60:
        return f'{s // 60}m {s % 60:02d}s'
    return f'{s}s'


class Boot:
    def __init__(self, ident, name, log, start):
        self.id, self.name, self.log, self.start = ident, name, log, start
        self.end = self.status = None
        self.reason = ''
        self.step = ''
        self.step_i = self.step_n = self.guest_s = None
        self.offset = 0
        self.partial = b''

    def read_steps(self):
        """The steps in the console log since the last call."""
        try:
            with open(self.log, 'rb') as f:
                if os.fstat(f.fileno()).st_size < self.offset:
                    self.offset, self.partial = 0, b''     # a retry began it anew
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return []
        self.offset += len(data)
        lines = (self.partial + data).split(b'\n')
        self.partial = lines.pop()
        steps = []
        for raw in lines:
            line = raw.decode('utf-8', 'replace').replace('\r', '').strip()
            m = STEP_PATTERNS[0].match(line)
            if m:
                i, n, guest_s, text = m.groups()
                steps.append((int(i) if i else None, int(n) if n else None, int(guest_s), text))
                continue
            m = STEP_PATTERNS[1].match(line)
            if m:
                steps.append((None, None, int(m.group(2)), m.group(1)))
        for self.step_i, self.step_n, self.guest_s, self.step in steps:
            pass
        return steps


class Progress:
    def __init__(self, args, out):
        self.title, self.total, self.jobs = args.title, args.total, args.jobs
        self.out = out
        self.tty = out.isatty() and not args.lines and os.environ.get('TERM', '') != 'dumb'
        self.boots = {}
        self.order = []
        self.max_running = 0
        self.block = 0          # lines of the status block on the terminal
        self.started = time.time()

    # ---- what is shown ------------------------------------------------
    def write(self, text):
        self.out.write(text)
        self.out.flush()

    def event(self, text):
        """A line that stays: above the status block on a terminal."""
        self.clear()
        self.write(f'{self.title}: {text}\n')

    def clear(self):
        if self.tty and self.block:
            self.write(f'\x1b[{self.block}A\r\x1b[J')
            self.block = 0

    def redraw(self, now):
        if not self.tty:
            return
        width = shutil.get_terminal_size((100, 24)).columns - 1
        lines = [self.summary(now)]
        for b in self.running():
            step = (f'{b.step_i}/{b.step_n} ' if b.step_n else '') + b.step
            guest = f', guest {b.guest_s} s' if b.guest_s is not None else ''
            lines.append(f'  {b.name}: {step or "booting"}{guest}; {duration(now - b.start)}')
        self.clear()
        self.write(''.join(line[:width] + '\n' for line in lines))
        self.block = len(lines)

    def done(self):
        return [self.boots[i] for i in self.order if self.boots[i].end is not None]

    def running(self):
        return [self.boots[i] for i in self.order if self.boots[i].end is None]

    def summary(self, now):
        done, running = len(self.done()), len(self.running())
        of = f' of {self.total}' if self.total else ''
        text = f'{self.title}: {done}{of} boots done, {running} running'
        if self.total > done + running:
            text += f', {self.total - done - running} waiting'
        eta = self.eta(now)
        if eta:
            text += f'; ETA {duration(eta[0])} ({time.strftime("%H:%M", time.localtime(now + eta[0]))})' + eta[1]
        return text + f'; {duration(now - self.started)} so far'

    def eta(self, now):
        """(seconds left, how it was estimated), or None."""
        ended = self.done()
        ok = [b.end - b.start for b in ended if b.status == 0]
        lengths = ok or [b.end - b.start for b in ended]
        how = f' from {len(lengths)} boot{"s" if len(lengths) > 1 else ""} done'
        if not lengths:
            lengths = [(now - b.start) * b.step_n / b.step_i for b in self.running()
                       if b.step_n and b.step_i and b.step_i * 10 >= b.step_n]
            how = ', early: from the running boots\' steps'
        if not lengths or not self.total or len(ended) >= self.total:
            return None
        mean = sum(lengths) / len(lengths)
        running = self.running()
        slots = max(self.jobs, self.max_running, 1)
        free = [max(mean - (now - b.start), 0) for b in running] + [0] * max(slots - len(running), 0)
        heapq.heapify(free)
        for _ in range(max(self.total - len(ended) - len(running), 0)):
            heapq.heappush(free, heapq.heappop(free) + mean)
        return max(free), how

    # ---- what happens -------------------------------------------------
    def on_line(self, line):
        fields = line.rstrip('\n').split('\t')
        if fields[0] == 'start' and len(fields) == 5:
            _, t, ident, name, log = fields
            self.boots[ident] = Boot(ident, name, log, float(t))
            self.order.append(ident)
            self.max_running = max(self.max_running, len(self.running()))
            if not self.tty:
                self.event(f'{name}: started; console: {log}')
        elif fields[0] == 'end' and len(fields) == 5 and fields[2] in self.boots:
            _, t, ident, status, reason = fields
            b = self.boots[ident]
            self.on_steps(b)
            b.end, b.status, b.reason = float(t), int(status), reason
            self.on_end(b)

    def on_steps(self, b):
        for i, n, guest_s, text in b.read_steps():
            if not self.tty:
                step = f'{i}/{n} ' if n else ''
                self.event(f'{b.name}: {step}{text} (guest {guest_s} s)')

    def on_end(self, b):
        took = duration(b.end - b.start)
        if b.status != 0:
            where = '' if b.log in b.reason else f'; console: {b.log}'
            self.event(f'{b.name}: FAILED after {took}, status {b.status}'
                       f'{": " + b.reason if b.reason else ""}{where}')
            return
        done = len(self.done())
        of = f' of {self.total}' if self.total else ''
        eta = self.eta(b.end)
        self.event(f'{b.name}: done in {took}; {done}{of} boots done'
                   + (f', ETA {duration(eta[0])}{eta[1]}' if eta else ''))

    def poll(self, events):
        for line in events.readlines():
            self.on_line(line)
        for b in self.running():
            self.on_steps(b)

    def finish(self, now):
        for b in self.running():
            self.on_steps(b)
            self.event(f'{b.name}: ended without a word from vm/run.sh (killed?); console: {b.log}')
            b.end, b.status = now, -1
        ended = self.done()
        failed = sum(b.status != 0 for b in ended)
        if ended:
            wall = max(b.end for b in ended) - min(b.start for b in ended)
            boots = 'boot' if len(ended) == 1 else 'boots'
            self.event(f'{len(ended)} {boots} in {duration(wall)}, {failed} failed')


def relay(proc, progress):
    """Pass the command's output on as whole lines; yield between reads."""
    sel = selectors.DefaultSelector()
    sinks = {proc.stdout: sys.stdout.buffer, proc.stderr: sys.stderr.buffer}
    pending = {}
    for pipe in sinks:
        os.set_blocking(pipe.fileno(), False)
        sel.register(pipe, selectors.EVENT_READ)
        pending[pipe] = b''
    while sinks:
        for key, _ in sel.select(POLL_S):
            pipe = key.fileobj
            data = pipe.read()
            if data is None:
                continue
            if data:
                whole, nl, pending[pipe] = (pending[pipe] + data).rpartition(b'\n')
                data = whole + nl
            else:
                sel.unregister(pipe)
                data, pending[pipe] = pending[pipe], b''
                sink = sinks.pop(pipe)
            sink = sys.stdout.buffer if pipe is proc.stdout else sys.stderr.buffer
            if data:
                if progress.tty and os.isatty(sink.fileno()):
                    progress.clear()
                sink.write(data)
                sink.flush()
        yield


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--title', default='progress')
    ap.add_argument('--total', type=int, default=0, help='boots expected (0: unknown)')
    ap.add_argument('--jobs', type=int, default=0, help='boots side by side (0: as seen)')
    ap.add_argument('--to', type=int, default=1, help='file descriptor to show progress on')
    ap.add_argument('--lines', action='store_true', help='a line per event, even on a terminal')
    ap.add_argument('--events', help='the events file (default: a temporary one)')
    ap.add_argument('command', nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.command[:1] == ['--']:
        args.command = args.command[1:]
    if not args.command:
        ap.error('no COMMAND')
    out = sys.stdout if args.to == 1 else os.fdopen(args.to, 'w')
    events_path = args.events or tempfile.mkstemp(prefix='idlescope-progress.')[1]
    open(events_path, 'a').close()
    progress = Progress(args, out)
    # A progress.py watching this one sees the same boots.
    outer = os.environ.get('IDLESCOPE_PROGRESS')
    env = dict(os.environ, IDLESCOPE_PROGRESS=os.path.abspath(events_path) +
               (':' + outer if outer else ''))
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the command's to handle
    try:
        proc = subprocess.Popen(args.command, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
    except OSError as e:
        sys.exit(f'progress: error: {args.command[0]}: {e.strerror}')
    with open(events_path) as events:
        last_draw = 0
        for _ in relay(proc, progress):
            progress.poll(events)
            now = time.time()
            if now - last_draw >= 1 or not progress.block:
                progress.redraw(now)
                last_draw = now
        status = proc.wait()
        progress.poll(events)
        progress.finish(time.time())
    progress.clear()
    if not args.events:
        os.unlink(events_path)
    sys.exit(status if status >= 0 else 128 - status)


if __name__ == '__main__':
    main()
