#!/usr/bin/env python3
"""Drives `wx browse` (or any full-screen program) in a pseudo-terminal and reports what a
terminal would show, through the `pyte` terminal emulator (Debian: python3-pyte).

    python3 Tests/Support/browse_driver.py SCRIPT.json

SCRIPT: {"argv": [...], "env": {...}, "size": [cols, rows], "steps": [...], "job_control": false}.
With job_control, a stand-in shell leads the terminal's session and runs the program in a
foreground process group of its own, as an interactive shell does, so the program may stop
on SIGTSTP (the group of a session leader is orphaned, and the kernel does not stop those);
signals then go to that group. With "job_control": "background" the shell starts it in the
background (`wx browse &`): the shell's own group keeps the terminal until a "fg" step.
Steps, in order:
  {"keys": "text"}          write bytes to the terminal (JSON escapes: "\\u001b[B" is Down)
  {"wait": "text"}          until the screen shows text (10 s, or "timeout": seconds; else an
                            error is recorded)
  {"gone": "text"}          until the screen no longer shows text
  {"snap": "name"}          keep the screen's lines (and reverse-video cells) under name
  {"resize": [cols, rows]}  set the window size (the kernel sends SIGWINCH)
  {"signal": "TERM"}        send a signal to the program
  {"resumed": true}         after a SIGCONT: until the program is back on the alternate screen
  {"waits": true}           started in the background: until the program has stopped without
                            having entered the alternate screen
  {"fg": true}              the stand-in shell gives the program the terminal and continues it
  {"stopped": "name"}       after a SIGTSTP: wait until the program has stopped and left the
                            alternate screen, then keep `stty -g` under modes[name]
  {"run": [argv...]}        run a command to completion with the same environment (stdout kept)
  {"rename": [src, dst]}    rename a file (a sync publishing underneath)
  {"exit": true}            wait for the program to end (10 s)
Prints one JSON object: screens, runs, errors, status ({"code": n} or {"signal": n}), the
terminal modes before and after (`stty -g` on the pty), whether they match, whether the
alternate screen was entered and left and the cursor shown again, the window title.
The program is killed if it is still running at the end. Python 3.11 standard library + pyte.
"""

import json
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import fcntl
import time

TIMEOUT = 10.0
LIMIT = 90  # seconds for a whole script


def set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def stty(fd):
    r = subprocess.run(["stty", "-g"], stdin=fd, capture_output=True, text=True)
    return r.stdout.strip()


def spawn(argv, env, cols, rows, before=None, job_control=False):
    """Starts argv in a new session whose controlling terminal is a new cols x rows pty.
    Returns (pid, master, slave); `before(slave)` runs first (to read the initial modes)."""
    master, slave = os.openpty()
    set_size(slave, cols, rows)
    if before:
        before(slave)
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(master)
            if job_control:
                shell(argv, env, background=job_control == "background")
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid, master, slave


def shell(argv, env, background=False):
    """The stand-in shell: runs argv in its own foreground group (or in the background until
    SIGUSR1, its `fg`), passes its status on."""
    started = []

    def fg(*_):
        os.tcsetpgrp(0, started[0])
        os.killpg(started[0], signal.SIGCONT)

    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    if background:  # before the fork: the driver may ask as soon as the program has stopped
        signal.signal(signal.SIGUSR1, fg)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})  # a test runner may block it
    child = os.fork()
    if child == 0:
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        signal.signal(signal.SIGUSR1, signal.SIG_DFL)
        os.setpgid(0, 0)
        os.execve(argv[0], argv, env)
    os.setpgid(child, child)
    started.append(child)
    if not background:
        os.tcsetpgrp(0, child)
    while True:
        _, st = os.waitpid(child, os.WUNTRACED)
        if os.WIFSTOPPED(st):
            continue
        if os.WIFSIGNALED(st):
            signal.signal(os.WTERMSIG(st), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(st))
        os._exit(os.WEXITSTATUS(st))


def main():
    try:
        import pyte
    except ImportError:  # pyenv's python3 does not see Debian's packages
        sys.path.append("/usr/lib/python3/dist-packages")
        import pyte

    with open(sys.argv[1]) as fh:
        script = json.load(fh)
    cols, rows = script.get("size", [80, 24])
    env = script.get("env", {})
    initial = {}

    def record(slave):
        initial["attrs"], initial["stty"] = termios.tcgetattr(slave), stty(slave)

    job_control = script.get("job_control", False)
    pid, master, slave = spawn(script["argv"], env, cols, rows, before=record, job_control=job_control)

    def give_up(*_):  # a program that never settles: kill it and say so, never hang a test run
        os.killpg(os.getpgid(pid), signal.SIGKILL)
        print(json.dumps({"errors": [f"the driver gave up after {LIMIT} s"], "final": []}))
        os._exit(1)

    signal.signal(signal.SIGALRM, give_up)
    signal.alarm(LIMIT)
    before_attrs, before = initial["attrs"], initial["stty"]

    screen = pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    raw = bytearray()
    out = {"screens": {}, "reverse": {}, "runs": [], "errors": []}
    status = None

    def pump(wait):
        got = False
        r, _, _ = select.select([master], [], [], wait)
        while r:
            try:
                data = os.read(master, 65536)
            except OSError:
                return got
            if not data:
                return got
            raw.extend(data)
            stream.feed(data)
            got = True
            r, _, _ = select.select([master], [], [], 0)
        return got

    def reap(block):
        nonlocal status
        if status is not None:
            return True
        p, st = os.waitpid(pid, 0 if block else os.WNOHANG)
        if p == 0:
            return False
        status = {"signal": os.WTERMSIG(st)} if os.WIFSIGNALED(st) else {"code": os.WEXITSTATUS(st)}
        return True

    groups = []

    def program_group():
        """The program's process group: the terminal's foreground group, read once it is set."""
        if not groups and job_control == "background":  # the shell's only child
            # Kept as read: /proc's children list is read again only to wait, never indexed
            # after a second read that may come back empty.
            def started():
                kids = children(pid)
                if kids:
                    groups.append(kids[0])
                return bool(kids)

            until(started, "the program to start")
        if not groups:
            # The terminal's foreground group, kept as read (a second read may find none: the
            # program stopping hands the terminal back), else the group of the shell's child.
            def found():
                g = os.tcgetpgrp(master)
                if g in (0, pid):
                    kids = children(pid)
                    try:
                        g = os.getpgid(kids[0]) if kids else 0
                    except OSError:
                        g = 0
                if g in (0, pid):
                    return False
                groups.append(g)
                return True

            until(found, "the program's process group")
        # Timed out: the error is recorded; the shell's group stands in so the script ends.
        return groups[0] if groups else pid

    def children(parent):
        try:
            with open(f"/proc/{parent}/task/{parent}/children") as fh:
                return [int(c) for c in fh.read().split()]
        except OSError:
            return []

    def state(p):
        with open(f"/proc/{p}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]

    def play(step):
        if "keys" in step:
            os.write(master, step["keys"].encode())
        elif "wait" in step:
            until(lambda: step["wait"] in shown(), repr(step["wait"]), step.get("timeout", TIMEOUT))
        elif "gone" in step:
            until(lambda: step["gone"] not in shown(), "no " + repr(step["gone"]))
        elif "snap" in step:
            pump(0.05)
            out["screens"][step["snap"]] = list(screen.display)
            # Reverse video, cell by cell ("R" or "."), under the same name.
            out["reverse"][step["snap"]] = [
                "".join("R" if screen.buffer[y][x].reverse else "." for x in range(screen.columns))
                for y in range(screen.lines)]
        elif "resize" in step:
            c, r = step["resize"]
            set_size(master, c, r)
            screen.resize(r, c)
        elif "signal" in step:
            sig = getattr(signal, "SIG" + step["signal"])
            os.killpg(program_group(), sig) if job_control else os.kill(pid, sig)
        elif "resumed" in step:  # back on the alternate screen (raw mode is set before that)
            until(lambda: raw.rfind(b"\x1b[?1049h") > raw.rfind(b"\x1b[?1049l"), "the program to resume")
        elif "waits" in step:
            group = program_group()
            until(lambda: state(group) == "T", "the background program to stop")
            if b"\x1b[?1049h" in raw:
                out["errors"].append("the background program took the screen before it stopped")
        elif "fg" in step:
            os.kill(pid, signal.SIGUSR1)
        elif "stopped" in step:
            group = program_group()

            def stopped():
                with open(f"/proc/{group}/stat") as fh:
                    state = fh.read().rsplit(")", 1)[1].split()[0]
                return state == "T" and raw.rfind(b"\x1b[?1049l") > raw.rfind(b"\x1b[?1049h")

            if until(stopped, "the program to stop"):
                out.setdefault("modes", {})[step["stopped"]] = stty(slave)
        elif "run" in step:
            r = subprocess.run(step["run"], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
            out["runs"].append({"code": r.returncode, "stdout": r.stdout, "stderr": r.stderr})
        elif "rename" in step:
            os.rename(*step["rename"])
        elif "exit" in step:
            until(lambda: reap(False), "the program to exit")

    def shown():
        return "\n".join(screen.display)

    def until(cond, what, limit=None):
        end = time.monotonic() + (limit or TIMEOUT)
        while time.monotonic() < end:
            pump(0.02)
            if cond():
                return True
            if reap(False):
                pump(0.05)
                return cond()
        out["errors"].append(f"timed out waiting for {what}; screen:\n{shown()}")
        return False

    for step in script.get("steps", []):
        try:
            play(step)
        except OSError as e:  # a step that cannot be done ends the script; the program is killed
            out["errors"].append(f"step {step}: {e}")
            break
        pump(0)

    if not reap(False):
        os.kill(pid, signal.SIGKILL)
        reap(True)
        out["killed"] = True
    pump(0.05)
    after = stty(slave)
    data = bytes(raw)
    out.update(
        status=status,
        stty_before=before,
        stty_after=after,
        modes_restored=termios.tcgetattr(slave) == before_attrs and before == after,
        alternate_entered=b"\x1b[?1049h" in data,
        alternate_left=data.rfind(b"\x1b[?1049l") > data.rfind(b"\x1b[?1049h"),
        cursor_shown=data.rfind(b"\x1b[?25h") > data.rfind(b"\x1b[?25l"),
        title=screen.title,
        final=list(screen.display),
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
