#!/usr/bin/python3
"""The `make bench-serve` client: starts `fonti-batch serve JOB --port 0`, then does what open
pages do, over HTTP (the standard library only), and prints the table.

    /usr/bin/python3 Benchmarks/serve-client.py font SOURCE DIR
        # DIR/a.ttf and DIR/b.ttf: SOURCE renamed "Fonti Bench Custom", and a rebuild of it
        # whose bytes differ (one glyph moved), for the rebuild measurement
    /usr/bin/python3 Benchmarks/serve-client.py run BINARY JOB CUSTOM_FONT DIR
        # CUSTOM_FONT is the job's `fonts:` file; DIR holds a.ttf and b.ttf

A page (class Page) keeps 6 connections to the server, as a browser does over HTTP/1.1, and
queues its card requests in order; a keystroke asks for its cards 12 ms later (the page's
debounce), at the edge the grid shows them at (288 px), each with a new `seq`, and drops the requests of older keystrokes not yet sent (the
page aborts their fetches; one already sent runs to its answer here). A keystroke counts when its 12 cards all arrive (200): the time from the
keystroke to the last of them. Its cards answered 503 (stale: a newer keystroke came) or
dropped before they were sent do not count; the table says how many counted.

What is measured (all on one server, started once):
  1. one page typing 20-character sentences at 8 characters a second, 60 keystrokes, 12 visible
     cards per keystroke; also the last keystroke of each sentence alone (nothing typed after
     it: its cards are what the user sees), and with 12 connections (all cards at once);
  2. every family's card for a new text at once, 6 connections: the time to the last;
  3. the custom font rewritten (truncate + write, as fontmake does), 5 times: the time to the
     `state` event naming its slug, and to its card with the new `v` received;
  4. 1,000 different texts on 12 families, 2 requests at a time: the resident memory of the
     server and its workers before, after 500, after 1,000 and at the peak (sampled every 50 ms
     from /proc);
  5. 8 pages typing at once, each as in 1.
Nothing here is a test: numbers vary with the machine. Time-outs are guards.
"""
import collections
import http.client
import json
import math
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

TYPING_INTERVAL = 1 / 8  # 8 characters a second
DEBOUNCE = 0.012  # the page draws 12 ms after the last keystroke (ServePage's script)
# The edge the page's grid asks its cards at in a 1400 px wide window at a pixel ratio of 1
# (a card's picture is 250 px wide there, rounded up to 32); BENCH_SERVE_EDGE changes it.
EDGE = int(os.environ.get("BENCH_SERVE_EDGE", "288"))
SENTENCE = 20  # characters a sentence
VISIBLE = 12  # cards on the screen
CONNECTIONS = 6  # a browser's connections to one host over HTTP/1.1
GUARD = 60  # seconds: the longest any single wait may take


def fail(message):
    """Stops the benchmark: from the main thread through its clean-up (the server stopped); from
    another thread at once (bench-serve.sh then stops the server, whose id it was given)."""
    print(f"bench-serve: {message}", file=sys.stderr)
    if threading.current_thread() is threading.main_thread():
        sys.exit(1)
    os._exit(1)


# ---- the custom font and its rebuild ---------------------------------------------------------


def make_fonts(source, folder):
    from fontTools.ttLib import TTFont

    os.makedirs(folder, exist_ok=True)
    for version, shift in (("a", 0), ("b", 40)):
        font = TTFont(source)
        for record in font["name"].names:
            if record.nameID in (1, 16):
                record.string = "Fonti Bench Custom"
            elif record.nameID in (4,):
                record.string = "Fonti Bench Custom Regular"
            elif record.nameID == 6:
                record.string = "FontiBenchCustom-Regular"
            elif record.nameID == 5:
                record.string = f"Version 1.00{version}"
        if shift:  # a rebuild: one glyph's outline moved up
            glyf = font["glyf"]
            name = font.getBestCmap()[ord("o")]
            glyph = glyf[name]
            glyph.coordinates.translate((0, shift))
            glyph.recalcBounds(glyf)
        font.save(os.path.join(folder, f"{version}.ttf"))


# ---- the server --------------------------------------------------------------------------------


class Server:
    """`fonti-batch serve JOB --port 0`, in our process group (a ^C reaches it too)."""

    def __init__(self, binary, job):
        self.process = subprocess.Popen(
            [binary, "serve", job, "--port", "0"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
        if os.environ.get("BENCH_SERVE_PIDFILE"):  # for bench-serve.sh's clean-up
            with open(os.environ["BENCH_SERVE_PIDFILE"], "w") as f:
                f.write(f"{self.process.pid}\n")
        self.stderr = []
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        line = self._first_line(timeout=120)
        match = re.search(r"serving (http://\S+)", line)
        if not match:
            self.stop()
            fail(f"no URL in the server's first line: {line!r}\n{''.join(self.stderr[-20:])}")
        url = urllib.parse.urlsplit(match.group(1))
        self.host, self.port = url.hostname, url.port
        self.token = urllib.parse.parse_qs(url.query).get("token", [""])[0]
        self.pid = self.process.pid

    def _drain_stderr(self):
        for line in iter(self.process.stderr.readline, b""):
            self.stderr.append(line.decode("utf-8", "replace"))

    def _first_line(self, timeout):
        box = []
        reader = threading.Thread(
            target=lambda: box.append(self.process.stdout.readline()), daemon=True
        )
        reader.start()
        reader.join(timeout)
        if not box or not box[0]:
            self.stop()
            fail(
                f"the server printed no URL within {timeout} s (exit {self.process.poll()}):\n"
                + "".join(self.stderr[-20:])
            )
        threading.Thread(target=lambda: self.process.stdout.read(), daemon=True).start()
        return box[0].decode("utf-8", "replace")

    def connection(self):
        return http.client.HTTPConnection(self.host, self.port, timeout=GUARD)

    def get_json(self, path):
        c = self.connection()
        try:
            c.request("GET", path)
            r = c.getresponse()
            body = r.read()
            if r.status != 200:
                fail(f"GET {path}: {r.status} {body[:200]!r}")
            return json.loads(body)
        finally:
            c.close()

    def check(self, phase):
        """Stops the benchmark if the server has ended on its own."""
        code = self.process.poll()
        if code is not None:
            fail(
                f"the server ended (exit {code}) during {phase}; its last words:\n"
                + "".join(self.stderr[-20:])
            )

    def stop(self):
        """Ctrl-C, as a user stops it; the exit code (130 expected)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


# ---- memory: the server and its workers, from /proc ----------------------------------------------


def processes(root):
    """pid → (ppid, cmdline) of `root` and its descendants."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read().decode("utf-8", "replace")
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        table[int(name)] = (ppid, cmdline)
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _) in table.items():
            if ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return {pid: table[pid] for pid in tree if pid in table}


def resident_kib(root):
    """The resident sets of `root` and its descendants, summed (KiB). A child that has not yet
    run its program (posix_spawn's child shares its parent's memory until it execs: same
    command line as its parent) is left out, or the parent would count twice."""
    total = 0
    tree = processes(root)
    for pid, (ppid, cmdline) in tree.items():
        if pid != root and ppid in tree and tree[ppid][1] == cmdline:
            continue
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


class MemorySampler:
    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, 0, True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            self.peak = max(self.peak, resident_kib(self.pid))
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


# ---- a page --------------------------------------------------------------------------------------


class Keystroke:
    def __init__(self, seq, cards):
        self.seq, self.cards = seq, cards
        self.start = time.monotonic()
        self.arrived, self.failed, self.last = 0, False, None
        self.ends_sentence = False  # the last keystroke before a pause

    @property
    def done(self):
        return self.arrived == self.cards and not self.failed

    def latency(self):
        return self.last - self.start if self.done else None


class Page:
    """One open page: its client id, its connections and its queue of card requests."""

    def __init__(self, server, state, connections=CONNECTIONS):
        self.server, self.state = server, state
        self.client = "bench-%012x" % random.getrandbits(48)
        self.seq = 0
        self.queue = collections.deque()
        self.lock = threading.Condition()
        self.in_flight = 0
        self.keystrokes = []
        self.errors = []
        self.stale = 0
        self.dropped = 0
        self.closed = False
        self.threads = [
            threading.Thread(target=self._work, daemon=True) for _ in range(connections)
        ]
        for t in self.threads:
            t.start()

    def card_url(self, family, text, seq):
        query = urllib.parse.urlencode(
            {"text": text, "edge": EDGE, "v": family["v"], "client": self.client, "seq": seq},
            quote_via=urllib.parse.quote,
        )
        return f"/card/{urllib.parse.quote(family['slug'])}.png?{query}"

    def keystroke(self, text, families):
        """A new text: every card of `families` requested with a new seq; the requests of older
        keystrokes still waiting in the queue are dropped, as a browser cancels them."""
        with self.lock:
            self.seq += 1
            k = Keystroke(self.seq, len(families))
            kept = collections.deque()
            for item in self.queue:
                if item[1].seq < self.seq:
                    item[1].failed = True
                    self.dropped += 1
                else:
                    kept.append(item)
            self.queue = kept
            for family in families:
                self.queue.append((self.card_url(family, text, self.seq), k))
            self.keystrokes.append(k)
            self.lock.notify_all()
        return k

    def _work(self):
        connection = self.server.connection()
        while True:
            with self.lock:
                while not self.queue and not self.closed:
                    self.lock.wait()
                if self.closed:
                    connection.close()
                    return
                url, k = self.queue.popleft()
                self.in_flight += 1
            status, body = self._get(connection, url)
            now = time.monotonic()
            with self.lock:
                self.in_flight -= 1
                if status == 200 and body.startswith(b"\x89PNG"):
                    k.arrived += 1
                    k.last = now
                elif status == 503:
                    k.failed = True
                    self.stale += 1
                else:
                    k.failed = True
                    self.errors.append(f"{status} {url[:120]}: {body[:120]!r}")
                self.lock.notify_all()

    def _get(self, connection, url):
        for attempt in (1, 2):  # a kept-alive connection the server closed: once more
            try:
                connection.request("GET", url)
                r = connection.getresponse()
                return r.status, r.read()
            except (http.client.HTTPException, ConnectionError, OSError) as error:
                connection.close()
                if attempt == 2:
                    return 0, str(error).encode()

    def idle(self, timeout=GUARD):
        """Waits until nothing is queued or in flight."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.queue or self.in_flight:
                left = deadline - time.monotonic()
                if left <= 0:
                    waiting = len(self.queue) + self.in_flight
                    fail(f"a page still waits for {waiting} cards after {timeout} s")
                self.lock.wait(left)

    def close(self):
        with self.lock:
            self.closed = True
            self.lock.notify_all()


# ---- texts never drawn before (the cache must not help) ------------------------------------------

WORDS = (
    "amber quartz vivid jolly fox glyph kern serif sans proof type waltz nymph crwth zephyr "
    "bright fjord black judge vow lazy dog brown quick jumps over sphinx pack box liquor dozen "
    "jugs mauve haze wicked fuzzy cheek"
).split()
# A sentence's first character: a keystroke's text is new only if it is (A-Z, a-z, À-ÿ).
INITIALS = [
    chr(c)
    for c in list(range(0x41, 0x5B)) + list(range(0x61, 0x7B)) + list(range(0xC0, 0x100))
    if c not in (0xD7, 0xF7)
]
used = set()


def sentence(length=SENTENCE, typed=True):
    """A sentence of `length` characters never drawn before; `typed`: nor any of its prefixes
    (each is a keystroke's text)."""
    for _ in range(10000):
        words = [random.choice(WORDS) for _ in range(8)]
        text = (random.choice(INITIALS) + " " + " ".join(words))[:length]
        texts = [text[:i] for i in range(1, length + 1)] if typed else [text]
        if len(text) == length and not any(t in used for t in texts):
            used.update(texts)
            return text
    fail("no new sentence found")


# ---- the measurements ----------------------------------------------------------------------------


def typing(page, families, keystrokes):
    """`keystrokes` keystrokes at 8 a second, in sentences; a pause (the page idle) between."""
    done = 0
    while done < keystrokes:
        text = sentence()
        start = time.monotonic()
        for i in range(1, SENTENCE + 1):
            if done == keystrokes:
                break
            time.sleep(max(0, start + i * TYPING_INTERVAL - time.monotonic()))
            pressed = time.monotonic()
            time.sleep(DEBOUNCE)
            k = page.keystroke(text[:i], families)
            k.start = pressed
            done += 1
        k.ends_sentence = True
        page.idle()
        time.sleep(0.3)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def typed(pages):
    """The latencies of the keystrokes whose cards all arrived, of all and of those that ended a
    sentence (nothing typed after them until their cards arrived), with what they are out of."""
    keystrokes = [k for page in pages for k in page.keystrokes]
    last = [k for k in keystrokes if k.ends_sentence]
    return {
        "all": ([k.latency() for k in keystrokes if k.done], len(keystrokes)),
        "paused": ([k.latency() for k in last if k.done], len(last)),
        "errors": [e for page in pages for e in page.errors],
    }


def read_events(server, box, stop):
    """Reads /events, appending (time, event, data) to box until `stop` is set."""
    c = http.client.HTTPConnection(server.host, server.port, timeout=GUARD)
    c.request("GET", "/events", headers={"Accept": "text/event-stream"})
    r = c.getresponse()
    if r.status != 200:
        box.append((time.monotonic(), "error", f"{r.status}"))
        return
    event, data = "message", []
    while not stop.is_set():
        try:
            line = r.fp.readline()
        except OSError:
            break
        if not line:
            break
        line = line.decode("utf-8", "replace").rstrip("\r\n")
        if line == "":
            if data:
                box.append((time.monotonic(), event, "\n".join(data)))
            event, data = "message", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    c.close()


def rebuild(server, custom_path, versions, slug, rounds=5):
    """The custom font rewritten `rounds` times; each: (to the state event, to the new card)."""
    box, stop = [], threading.Event()
    reader = threading.Thread(target=read_events, args=(server, box, stop), daemon=True)
    reader.start()
    time.sleep(0.5)  # the stream is open
    page = Page(server, None, connections=1)
    results = []
    for r in range(rounds):
        family = next(f for f in server.get_json("/api/state")["families"] if f["slug"] == slug)
        old_v = family["v"]
        data = versions[(r + 1) % 2]
        seen = len(box)
        start = time.monotonic()
        with open(custom_path, "wb") as f:  # truncate, then write, as fontmake does
            f.write(data)
        event_at = None
        deadline = start + GUARD
        while event_at is None:
            if time.monotonic() > deadline:
                fail(f"no state event naming {slug} within {GUARD} s of the rewrite: {box[seen:]}")
            for at, event, text in box[seen:]:
                if event == "state":
                    try:
                        change = json.loads(text)
                    except ValueError:
                        continue
                    if slug in change.get("changed", []) or change.get("all"):
                        event_at = at
                        break
            time.sleep(0.002)
        # The page: the state again, then the card with its new v.
        family = next(f for f in server.get_json("/api/state")["families"] if f["slug"] == slug)
        if family["v"] == old_v:
            fail(f"{slug}: v did not change after the rewrite ({old_v})")
        k = page.keystroke("Rebuilt " + sentence(12, typed=False), [family])
        page.idle()
        if not k.done:
            fail(f"{slug}: the new card did not arrive: {page.errors[-1:]}")
        results.append((event_at - start, k.last - start))
        time.sleep(1.5)  # settled before the next rewrite
    page.close()
    stop.set()
    return results


def main_run(binary, job, custom_path, versions_folder):
    versions = [open(os.path.join(versions_folder, n), "rb").read() for n in ("a.ttf", "b.ttf")]
    server = Server(binary, job)
    results = {}
    sampler = None
    try:
        state = server.get_json("/api/state")
        families = state["families"]
        custom = [f for f in families if f.get("custom")]
        if not custom:
            fail("the job's custom font is not among the served families")
        slug = custom[0]["slug"]
        visible = families[:VISIBLE]
        print(
            f"fonti-batch serve benchmark: {len(families)} families ({len(custom)} custom), "
            f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
            file=sys.stderr,
        )
        results["families"] = len(families)
        results["memory_start"] = resident_kib(server.pid)

        # Warm: the workers started, each family's face opened once (as a page's first view).
        warm = Page(server, state)
        warm.keystroke(sentence(typed=False), families)
        warm.idle(timeout=300)
        warm.close()
        server.check("the warm-up")

        # 1. one page typing.
        for connections in (CONNECTIONS, VISIBLE):
            page = Page(server, state, connections)
            typing(page, visible, 60)
            page.close()
            results[f"typing-{connections}"] = typed([page])
            server.check("one page typing")

        # 2. every family for a new text, three times.
        times = []
        for _ in range(3):
            page = Page(server, state)
            k = page.keystroke(sentence(typed=False), families)
            page.idle(timeout=300)
            page.close()
            if not k.done:
                fail(f"every family: cards missing ({page.errors[:3]}, {page.stale} stale)")
            times.append(k.last - k.start)
        results["all"] = times
        server.check("every family")

        # 3. a rebuilt font.
        results["rebuild"] = rebuild(server, custom_path, versions, slug)

        # 4. memory after 1,000 texts on 12 families, 2 at a time.
        state = server.get_json("/api/state")
        families = state["families"]
        visible = families[:VISIBLE]
        before = resident_kib(server.pid)
        sampler = MemorySampler(server.pid)
        pages = [Page(server, state, connections=1) for _ in range(2)]
        texts = int(os.environ.get("BENCH_SERVE_TEXTS", "1000"))

        def one_page(page, count):
            for _ in range(count):  # one keystroke at a time: none goes stale
                page.keystroke(sentence(36, typed=False), visible)
                page.idle(timeout=300)

        # In two halves: memory that is bounded is the same after the second as after the first.
        halves = []
        for half in (texts // 2, texts - texts // 2):
            threads = [
                threading.Thread(target=one_page, args=(p, n))
                for p, n in zip(pages, (half - half // 2, half // 2))
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            time.sleep(1)
            server.check("the memory run")
            halves.append(resident_kib(server.pid))
        for p in pages:
            p.close()
        peak = sampler.stop()
        sampler = None
        errors = sum(len(p.errors) for p in pages)
        results["memory"] = (before, halves[0], halves[1], peak, texts, errors)

        # 5. 8 pages typing at once.
        pages = [Page(server, state) for _ in range(8)]
        threads = []
        for p in pages:
            threads.append(threading.Thread(target=typing, args=(p, visible, 60)))
        for t in threads:
            t.start()
            time.sleep(random.uniform(0, TYPING_INTERVAL))
        for t in threads:
            t.join()
        for p in pages:
            p.close()
        results["eight"] = typed(pages)
        server.check("8 pages typing")
    finally:
        if sampler:
            sampler.stop()
        code = server.stop()
    if code != 130:
        print(f"bench-serve: the server ended with {code} on Ctrl-C (not 130)", file=sys.stderr)
    table(results)


def table(results):
    ms = lambda s: f"{1000 * s:.0f}"
    print()
    print(f"{'what':<62} {'median':>8} {'p95':>8} {'counted':>9}  target")
    target = "median ≤ 150, p95 ≤ 400"
    for key, kind, label in (
        (f"typing-{CONNECTIONS}", "all", f"keystroke → first {VISIBLE} cards, 1 page, ms"),
        (f"typing-{CONNECTIONS}", "paused", "  the last keystroke of each sentence, ms"),
        (f"typing-{VISIBLE}", "all", f"  {VISIBLE} connections (all cards at once), ms"),
        ("eight", "all", f"keystroke → first {VISIBLE} cards, 8 pages typing at once, ms"),
        ("eight", "paused", "  the last keystroke of each sentence, ms"),
    ):
        values, total = results[key][kind]
        median, p95 = (
            (ms(statistics.median(values)), ms(percentile(values, 95))) if values else ("-", "-")
        )
        print(f"{label:<62} {median:>8} {p95:>8} {len(values):>4} of {total:<3} {target}")
        errors = results[key]["errors"]
        if errors and kind == "all":
            print(f"  {len(errors)} errors, e.g. {errors[0]}")
    times = results["all"]
    print(
        f"{'every family (%d) for a new text, 6 connections, s' % results['families']:<62} "
        f"{statistics.median(times):>8.2f} {max(times):>8.2f} {len(times):>4} runs   ≤ 3 s"
    )
    rebuild = results["rebuild"]
    events = [e for e, _ in rebuild]
    cards = [c for _, c in rebuild]
    print(
        f"{'font file rewritten → state event naming it, ms':<62} "
        f"{ms(statistics.median(events)):>8} {ms(max(events)):>8} {len(events):>4} runs"
    )
    print(
        f"{'font file rewritten → its new card received, ms':<62} "
        f"{ms(statistics.median(cards)):>8} {ms(max(cards)):>8} {len(cards):>4} runs   ≤ 1000"
    )
    before, half, after, peak, texts, errors = results["memory"]
    mib = lambda k: f"{k / 1024:.0f}"
    print(
        f"memory of the server and its workers, RSS MiB: at start {mib(results['memory_start'])};"
        f" {texts} new texts × {VISIBLE} families:\n"
        f"  before {mib(before)}, after {texts // 2} {mib(half)}, after {texts} {mib(after)},"
        f" peak {mib(peak)}   (bounded: after {texts} ≈ after {texts // 2})"
    )
    if errors:
        print(f"  {errors} card requests failed during the memory run")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print()
    print(
        "median / p95 over the keystrokes whose cards all arrived (counted of typed); the others\n"
        "were made stale by the next keystroke (503, or dropped before sent, as a browser does).\n"
        "The last keystroke of a sentence has none after it: its cards are what the user sees.\n"
        "every family, rebuild: the median and the slowest of the runs.\n"
        f"This client used {usage.ru_utime + usage.ru_stime:.0f} CPU s of the same cores."
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "font":
        make_fonts(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "run":
        main_run(*sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
