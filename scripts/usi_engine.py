"""A USI engine driven over pipes, for the labelling scripts.

`Engine(path)` starts the engine and finishes the handshake (options given as
`setoption` lines first); `score(sfen, go)` runs one search and returns the last
reported score from Black's point of view (mate scores as +/-30000), or None.
"""
import subprocess
import sys


class Engine:
    """A running USI engine."""

    def __init__(self, path, options=()):
        self.path = path
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.wait("usiok")
        for opt in options:
            self.send(opt)
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def lines_until(self, token):
        """The engine's lines up to and including the one starting with `token`."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"{self.path} exited")
            yield line
            if line.startswith(token):
                return

    def read_until(self, token):
        """Reads up to the line starting with `token` and returns that line."""
        line = ""
        for line in self.lines_until(token):
            pass
        return line.strip()

    def wait(self, token):
        """Reads up to the line starting with `token`; returns the last score seen (side to move)."""
        score = None
        for line in self.lines_until(token):
            t = line.split()
            if "score" in t and len(t) > t.index("score") + 2:
                k = t.index("score")
                if t[k + 1] == "cp":
                    score = int(t[k + 2])
                elif t[k + 1] == "mate":
                    score = 30000 if int(t[k + 2]) > 0 else -30000
        return score

    def score(self, sfen, go):
        """Searches `sfen` with `go <go>`; the score from Black's point of view, or None."""
        self.send("position sfen " + sfen)
        self.send("go " + go)
        s = self.wait("bestmove")
        if s is None:
            return None
        return s if sfen.split()[1] == "b" else -s

    def quit(self):
        self.send("quit")
