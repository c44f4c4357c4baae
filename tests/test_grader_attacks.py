"""Hostile submissions, each a real notebook graded through the grader, gain nothing.

Every point is decided in the trusted checker; the student's code runs only in its sandboxed
process (fresh namespaces: no network, own PIDs, uid 65534, read-only Python, private /tmp and
/dev/shm, caps). One class of lesson 01 (13 points: format_table 1+2, bf16_round 1+3,
sequential_sum 1+2, pairwise_sum 1+2; the quickest lesson to grade) is graded once, two notebooks
at a time, while this test listens on loopback sockets that no submission may reach. The attacks
are those of the issues "Every point decided where student code cannot reach" and "Each student
kernel in its own namespaces" (docs/GRADING.md).
"""

import csv
import json
import os
import re
import secrets
import socket
import tempfile
import threading
from pathlib import Path

import nbformat
import pytest

from autograder.grader import Limits, Settings, grade
from autograder.report import report_class
from autograder.grader.sandbox.launch import bwrap_works
from autograder.common.notebooks import cell_grade_id, fill_answers
from conftest import ROOT, source_nb, student_nb

pytestmark = pytest.mark.slow
LESSON = "01_number_formats"
TOTAL = 13
CELL_TIMEOUT, NOTEBOOK_TIMEOUT = 10, 60  # the perfect notebook's slowest cell takes about 1 s
MARK = "zz" + secrets.token_hex(6)  # in every process a submission starts: none may outlive grading
SECRET = "instructor-secret-" + secrets.token_hex(6)

FT = 'def format_table():\n    """Attack."""\n'
BR = 'def bf16_round(x):\n    """Attack."""\n'
SS = 'def sequential_sum(values, dtype):\n    """Attack."""\n'
PS = 'def pairwise_sum(values, dtype):\n    """Attack."""\n'
# address space taken 256 MiB at a time (never touched) until RLIMIT_AS refuses more: the host sees
# the process's peak near the cap (sandbox/evidence.py), which names the memory limit
GROW_TO_THE_CAP = "    import numpy as np\n    held = []\n    while True:\n        held.append(np.empty(2**25))\n"
STUB = "    raise NotImplementedError()\n"
BLANK = {"format_table": FT + STUB, "bf16_round": BR + STUB, "sequential_sum": SS + STUB, "pairwise_sum": PS + STUB}


def submission(overrides=None, extra=None, edit=None, base=BLANK):
    """The release with ``overrides`` in its answer cells, the other answers from ``base`` (the
    unanswered stubs; None: the reference solutions). ``submission()``: the perfect notebook."""
    base = {} if overrides is None or base is None else base
    nb = fill_answers(student_nb(LESSON), source_nb(LESSON), {**base, **(overrides or {})})
    if extra:
        first = next(i for i, c in enumerate(nb.cells) if cell_grade_id(c).startswith("answer_"))
        nb.cells.insert(first + 1, nbformat.v4.new_code_cell(extra))
    if edit:
        edit(nb)
    return nb


def everywhere(body: str) -> dict:
    """The same attack body in every exercise (whatever it returns, it is not the answer)."""
    return {"format_table": FT + body, "bf16_round": BR + body, "sequential_sum": SS + body, "pairwise_sum": PS + body}


FOUND = """    found = []
    def look(what, path):
        try:
            with open(path, "rb") as f:
                data = f.read(200000)
            found.append((what, path, len(data), b"BEGIN HIDDEN" in data or b"_ref_" in data or SECRET in data))
        except OSError:
            pass
"""


def attacks(ports: dict, out_dir: Path) -> dict:
    """Each notebook carries up to four attacks, one per exercise (so the class stays small); every
    check reads the message of the exercise that carried its attack."""
    p = ports
    oracle = (
        "    import sys, gc\n"
        "    name = sys._getframe().f_code.co_name\n"
        "    for mod in list(sys.modules.values()):\n"
        "        ref = getattr(mod, '_ref_' + name, None)\n"
        "        if ref is not None:\n"
        "            raise RuntimeError('ORACLE FOUND in ' + str(mod))\n"
        "    for obj in gc.get_objects():\n"
        "        if callable(obj) and getattr(obj, '__name__', '') == '_ref_' + name:\n"
        "            raise RuntimeError('ORACLE FOUND')\n"
        "    raise RuntimeError('no oracle')\n"
    )
    kill_others = (
        "    import os, signal\n"
        "    for pid in range(1, 4000):\n"
        "        try:\n            os.kill(pid, signal.SIGKILL) if pid != os.getpid() else None\n"
        "        except OSError:\n            pass\n"
        "    raise NotImplementedError()\n"
    )
    startup_kill = (
        "    import os, pathlib\n"
        "    d = pathlib.Path(os.environ.get('HOME', '.')) / '.ipython/profile_default/startup'\n"
        "    d.mkdir(parents=True, exist_ok=True)\n"
        "    (d / '01-x.py').write_text(\n"
        "        'import builtins\\nbuiltins.AssertionError = type(\"A\", (Exception,), {})')\n"
        "    os.kill(os.getpid(), 9)\n"
    )
    return {
        "perfect": submission(),
        "blank": submission({}),
        # issue 17: IPython reached through a function's globals at definition time (there is none
        # to reach); a forwarding oracle looking for the references; killing every process it can
        # see; a start-up file in its own HOME, then a kill (the restart runs no such file)
        "takeover": submission(
            {"format_table": FT + oracle, "bf16_round": BR + kill_others, "sequential_sum": SS + startup_kill},
            extra=(
                "class Precision:\n"
                "    @staticmethod\n"
                "    def setup():\n"
                "        g = getattr(lambda: 0, '__glob' + 'als__')\n"
                "        ip = g['get_ip' + 'ython']()\n"
                "        ip.compile.ast_parse = lambda *a, **k: __import__('ast').parse('pass')\n"
                "        return ip\n"
                "_ready = Precision.setup()\n"
            ),
        ),
        "evil_values": submission(
            {
                "format_table": FT
                + (
                    "    class F(float):\n"
                    "        __eq__ = lambda s, o: True\n        __ne__ = lambda s, o: False\n"
                    "        __lt__ = __le__ = __gt__ = __ge__ = lambda s, o: True\n"
                    "        __hash__ = float.__hash__\n"
                    "    class D(dict):\n"
                    "        __eq__ = lambda s, o: True\n"
                    "        def __getitem__(s, k):\n            return F(1)\n"
                    "    return [D(name=n) for n in ('float32', 'bfloat16', 'float16', 'float8_e4m3fn', 'float8_e5m2')]\n"
                ),
                "bf16_round": BR
                + (
                    "    import numpy as np\n"
                    "    class A(np.ndarray):\n"
                    "        def __eq__(s, o):\n            return np.ones(np.shape(o), bool)\n"
                    "        __array_priority__ = 1000\n"
                    "    return np.asarray(x, np.float32).view(A)\n"
                ),
            }
        ),
        # issues 17 and 18, one exercise each: every way to the network, to listeners this test holds
        # on the host's 127.0.0.1 (format_table); hidden test text, secrets and other files
        # (bf16_round); the sockets of the grader or another kernel (sequential_sum); /dev/shm and
        # /tmp left behind (pairwise_sum)
        "probe": submission(
            {
                "format_table": FT
                + (
                    "    import socket, os\n"
                    "    reached = []\n"
                    "    def attempt(label, fn):\n"
                    "        try:\n            fn()\n            reached.append(label)\n"
                    "        except OSError:\n            pass\n"
                    "    def tcp(proto=0):\n"
                    "        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, proto)\n"
                    f"        s.settimeout(2)\n        s.connect(('127.0.0.1', {p['tcp']}))\n        s.sendall(b'{MARK}')\n"
                    "    def tfo():\n"
                    "        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
                    f"        s.sendto(b'{MARK}', getattr(socket, 'MSG_FASTOPEN', 0x20000000), ('127.0.0.1', {p['tcp']}))\n"
                    "    def udp():\n"
                    "        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                    f"        s.sendto(b'{MARK}', ('127.0.0.1', {p['udp']}))\n"
                    "    def unix():\n"
                    "        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
                    f"        s.connect({p['unix']!r})\n        s.sendall(b'{MARK}')\n"
                    "    attempt('tcp', tcp)\n    attempt('mptcp', lambda: tcp(262))\n    attempt('tfo', tfo)\n"
                    "    attempt('udp', udp)\n    attempt('unix', unix)\n"
                    "    raise RuntimeError('REACHED=' + repr(reached))\n"
                ),
                "bf16_round": BR
                + FOUND.replace("SECRET", repr(SECRET.encode()))
                + (
                    "    import linecache, glob, os, sys\n"
                    "    found += [k for k in linecache.cache if 'hidden' in str(k).lower()]\n"
                    "    for path in glob.glob('/proc/[0-9]*/cmdline') + glob.glob('/proc/[0-9]*/environ'):\n"
                    "        look('proc', path)\n"
                    f"    for path in ([{str(ROOT / 'solutions' / LESSON / (LESSON + '.ipynb'))!r},\n"
                    f"                  {str(ROOT / 'README.md')!r},\n"
                    f"                 {str(out_dir / 'gradebook.db')!r}, '/etc/shadow', '/etc/passwd', '/root/.bashrc']\n"
                    "                 + glob.glob('/tmp/*/*.ipynb') + glob.glob('/tmp/course-grade-*/work/*')\n"
                    "                 + glob.glob('/tmp/course-grade-*/checker.log')):\n"
                    "        look('file', path)\n"
                    "    f = sys._getframe()\n"
                    "    while f is not None:\n"
                    "        found += [k for k in f.f_globals if k.startswith('_ref_')]\n"
                    "        f = f.f_back\n"
                    "    found = [x for x in found if not (isinstance(x, tuple) and not x[3])]\n"
                    "    raise RuntimeError('FOUND=' + repr(found))\n"
                ),
                "sequential_sum": SS
                + (
                    "    seen = []\n"
                    "    for table in ('tcp', 'tcp6', 'udp', 'udp6', 'unix'):\n"
                    "        try:\n"
                    "            lines = open('/proc/net/' + table).readlines()[1:]\n"
                    "            seen += [table + ':' + line.strip()[:60] for line in lines]\n"
                    "        except OSError:\n"
                    "            pass\n"
                    "    raise RuntimeError('PORTS=' + repr(seen))\n"
                ),
                "pairwise_sum": PS
                + (
                    f"    open('/dev/shm/{MARK}', 'w').write('x')\n"
                    f"    open('/tmp/{MARK}', 'w').write('x')\n"
                    "    raise NotImplementedError()\n"
                ),
            }
        ),
        "escape": submission(
            {
                "bf16_round": BR
                + (
                    "    import os, time\n"
                    f"    os.posix_spawn('/bin/sleep', ['sleep', '600', '{MARK}'], dict(os.environ), setsid=True)\n"
                    "    if os.fork() == 0:\n"
                    "        os.setsid()\n"
                    "        if os.fork() == 0:\n"
                    f"            os.execvp('sleep', ['sleep', '601', '{MARK}'])\n"
                    "        os._exit(0)\n"
                    "    time.sleep(0.5)\n"
                    "    raise NotImplementedError()\n"
                ),
                "sequential_sum": SS
                + (
                    "    import os\n"
                    "    while True:\n"
                    "        try:\n"
                    "            if os.fork() == 0:\n"
                    f"                os.execvp('sleep', ['sleep', '602', '{MARK}'])\n"
                    "        except OSError:\n"
                    "            pass\n"
                ),
                "pairwise_sum": PS
                + (
                    "    import threading, time\n"
                    "    while True:\n"
                    "        threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n"
                ),
            }
        ),
        # issue 18's caps, each named in the row: files, memory; and a loop that costs only its own tests
        "limits": submission(
            {
                "format_table": FT
                + (
                    "    import os\n"
                    "    os.makedirs('flood', exist_ok=True)\n"
                    "    for i in range(25_000):  # past the file cap (2,000 here), then return: no timeout needed\n"
                    "        open(f'flood/{i}', 'w').close()\n"
                    "    raise NotImplementedError()\n"
                ),
                "bf16_round": BR + GROW_TO_THE_CAP,
                "pairwise_sum": PS + "    while True:\n        pass\n",
            },
            base=None,
        ),
        # issue 17: restarts and replays come out of one time budget
        # (it sleeps: the grader's clock is the wall's, and the limits student's loop burns the CPU)
        "hang_everywhere": submission(everywhere("    import time\n    while True:\n        time.sleep(1)\n")),
        "parse_error": submission({"bf16_round": BR + "    return x +\n"}),
        "shadow": submission(extra="def isinstance(*args):\n    return True\nFORMATS = []\n"),
        "static_tamper": submission({}, extra="get_ipython().input_transformers_cleanup.append(lambda lines: [])\n"),
        "edit_tests": submission(edit=edit_and_delete_tests),
        "hijack": submission(
            everywhere("    raise NotImplementedError()\n"),
            extra=(
                "import os, pathlib, __main__\n"
                "_h = pathlib.Path(os.environ['HOME'])\n"
                "_a = (_h / 'autograder' / 'grader' / 'checker').mkdir(parents=True, exist_ok=True)\n"
                "_b = (_h / 'autograder' / '__init__.py').write_text('')\n"
                "_c = (_h / 'autograder' / 'grader' / '__init__.py').write_text('')\n"
                "_c2 = (_h / 'autograder' / 'grader' / 'checker' / '__init__.py').write_text('')\n"
                f"_d = (_h / 'autograder' / 'grader' / 'checker' / 'main.py').write_text('open(\"/tmp/{MARK}-hijack\", \"w\")')\n"
                f"_e = (_h / 'sitecustomize.py').write_text('open(\"/tmp/{MARK}-site\", \"w\")')\n"
                "_f = (_h / '.matplotlib').mkdir(exist_ok=True)\n"
                f"_g = (_h / '.matplotlib' / 'matplotlibrc').write_text('backend: module://{MARK}')\n"
                "_crash = os.write(__main__.OUT, (65536).to_bytes(8, 'big') + b'[' * 65536)\n"
            ),
        ),
        # red team: remember a hidden test's inputs, show them in a later visible test's message
        "hidden_inputs": submission(
            {
                "sequential_sum": SS
                + (
                    "    SEEN.append(len(values))\n"
                    "    scalar = np.dtype(dtype).type\n"
                    "    total = scalar(0)\n"
                    "    for item in np.asarray(values).astype(dtype):\n"
                    "        total = scalar(total + item)\n"
                    "    return float(total)\n"
                ),
                "pairwise_sum": PS + "    raise ValueError('SEEN=' + repr(SEEN))\n",
            },
            extra="SEEN = []\n",
        ),
        # red team 3: the host's disk and files. 3,000 nested folders (Python's recursive walkers
        # crashed the checker and the worker, and the job folder, a setuid copy of a shell in it,
        # stayed behind); files and bytes written without end inside one call (measured only after
        # each test before); the checker's tmp swapped for a symlink to a host folder
        "host_harm": submission(
            {
                "format_table": FT
                + (
                    "    import os, shutil\n"
                    "    shutil.copy('/bin/sh', 'shell')\n"
                    "    os.chmod('shell', 0o4755)\n"
                    "    fd = os.open('.', os.O_RDONLY)\n"
                    "    for _ in range(3000):\n"
                    "        os.mkdir('d', dir_fd=fd)\n"
                    "        child = os.open('d', os.O_RDONLY, dir_fd=fd)\n"
                    "        os.close(fd)\n"
                    "        fd = child\n"
                    "    raise NotImplementedError()\n"
                ),
                "bf16_round": BR
                + (
                    "    import os, itertools\n"
                    "    os.makedirs('flood', exist_ok=True)\n"
                    "    for i in itertools.count():  # never returns: only the watch can end it in time\n"
                    "        open(f'flood/{i}', 'w').close()\n"
                ),
                "sequential_sum": SS
                + (
                    "    import itertools\n"
                    "    block = b'x' * 2**20\n"
                    "    for i in itertools.count():  # files under the 1 GiB file cap, without end\n"
                    "        with open(f'fill{i}', 'wb') as f:\n"
                    "            for _ in range(16):\n"
                    "                f.write(block)\n"
                    "                f.flush()\n"
                ),
                "pairwise_sum": PS
                + (
                    "    import os, shutil\n"
                    "    tmp = os.path.join(os.environ['HOME'], 'tmp')\n"
                    "    tried = []\n"
                    "    for how in (lambda: os.rename(tmp, tmp + '.old'), lambda: os.rmdir(tmp),\n"
                    "                lambda: shutil.rmtree(tmp), lambda: os.symlink(ESCAPE, tmp)):\n"
                    "        try:\n"
                    "            how()\n"
                    "            tried.append('done')\n"
                    "        except OSError as exc:\n"
                    "            tried.append(type(exc).__name__)\n"
                    "    raise RuntimeError(f'SWAP={tried} LINK={os.path.islink(tmp)}')\n"
                ),
            },
            extra=f"ESCAPE = {str(out_dir.parent / 'escape')!r}\n",
        ),
        # red team 3: a lone surrogate in a message stopped the outputs of the whole class
        "surrogate": submission(
            {
                "format_table": FT + "    raise ValueError('bad \\ud800 value')\n",
                "bf16_round": BR + "    return '\\udc00'\n",
            }
        ),
    }


def edit_and_delete_tests(nb):
    for cell in list(nb.cells):
        if cell_grade_id(cell) == "test_bf16_round_visible":
            cell.source = "pass  # this check is wrong\n"
        if cell_grade_id(cell) == "test_format_table_hidden":
            nb.cells.remove(cell)


class Listeners:
    """TCP, UDP and unix-socket listeners on this machine's loopback: what reaches them."""

    def __init__(self, tmp: Path):
        self.received = []
        self.tcp = socket.socket()
        self.tcp.bind(("127.0.0.1", 0))
        self.tcp.listen(16)
        self.tcp.settimeout(0.2)
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp.settimeout(0.2)
        self.unix_path = str(tmp / "listen.sock")
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind(self.unix_path)
        self.unix.listen(16)
        self.unix.settimeout(0.2)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def ports(self):
        return {"tcp": self.tcp.getsockname()[1], "udp": self.udp.getsockname()[1], "unix": self.unix_path}

    def serve(self):
        while not self.stop.is_set():
            for sock in (self.tcp, self.unix):
                try:
                    conn, _ = sock.accept()
                    self.received.append(("connect", conn.recv(100)))
                except OSError:
                    pass
            try:
                self.received.append(("udp", self.udp.recv(100)))
            except OSError:
                pass

    def close(self):
        self.stop.set()
        self.thread.join()


def processes_with(marker: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in cmd and "pytest" not in cmd:
                found.append(f"{entry.name}: {cmd}")
    return found


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    base = tmp_path_factory.mktemp("attacks")
    subs, out = base / "subs", base / "out"
    listeners = Listeners(base)
    for student, nb in attacks(listeners.ports(), out).items():
        (subs / student).mkdir(parents=True)
        nbformat.write(nb, str(subs / student / f"{LESSON}.ipynb"))
    (subs / "unreadable").mkdir()
    (subs / "unreadable" / f"{LESSON}.ipynb").write_text('{"cells": [ this is not JSON')
    (subs / "ghost").mkdir()
    (subs / "ghost" / "notes.txt").write_text("no notebook here")
    (subs / "symlinked").mkdir()
    os.symlink(ROOT / "solutions" / LESSON / f"{LESSON}.ipynb", subs / "symlinked" / f"{LESSON}.ipynb")
    (subs / "evil\x1b[2Jname").mkdir()
    (subs / "evil\x1b[2Jname" / f"{LESSON}.ipynb").write_text("not a notebook")
    os.environ["COURSE_TEST_SECRET"] = SECRET  # the grader's own environment holds a secret
    (base / "escape").mkdir()
    jobs = base / "jobs"  # where the grader makes each notebook's folder (TMPDIR)
    jobs.mkdir()
    saved = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = str(jobs), None
    try:
        # the disk and file caps, small enough to reach in a fraction of a cell's time however loaded
        # the machine (20,000 files took host_harm's flood past its 10 s cell under load)
        limits = Limits(work_bytes=96 * 2**20, work_files=2_000)
        # four notebooks at a time (issue 66): most of this class waits on its timeouts (sleeping answers),
        # which two at a time left a core idle for most of a minute (86 s against 68 s, an idle machine)
        settings = Settings(jobs=4, cell_timeout=CELL_TIMEOUT, notebook_timeout=NOTEBOOK_TIMEOUT, limits=limits)
        results = grade(subs, out, settings, quiet=True, names=[LESSON])
        report_class(out, quiet=True)  # grade, then report, as the command line does
    finally:
        os.environ.pop("COURSE_TEST_SECRET", None)
        if saved[0] is None:
            os.environ.pop("TMPDIR")
        else:
            os.environ["TMPDIR"] = saved[0]
        tempfile.tempdir = saved[1]
        listeners.close()
    left = [f"{d}/{f}" for d in ("/dev/shm", "/tmp") for f in os.listdir(d) if MARK in f]
    left += [str(p) for p in jobs.iterdir()] + [str(p) for p in (base / "escape").iterdir()]
    return {r.student: r for r in results}, out, listeners.received, processes_with(MARK), left


def scores(r):
    return {t.grade_id: t.score for t in r.tests}


def errors(r):
    return {t.grade_id: t.error for t in r.tests}


def test_namespaces_are_available_here():
    """CI installs bubblewrap (make test): the sandbox these tests prove is the real one."""
    assert bwrap_works() == "", bwrap_works()


def test_the_perfect_and_the_blank_notebook_keep_their_scores(attacked):
    results = attacked[0]
    assert (results["perfect"].score, results["perfect"].status) == (TOTAL, "ok"), results["perfect"].detail
    assert (results["blank"].score, results["blank"].status) == (0, "ok")


@pytest.mark.parametrize("student", ["takeover", "probe", "escape", "hijack", "hang_everywhere", "static_tamper"])
def test_no_attack_scores_more_than_the_blank_notebook(attacked, student):
    r = attacked[0][student]
    print(student, r.score, r.status, r.detail, errors(r))
    assert r.score == 0 and r.max_score == TOTAL


def test_values_that_lie_about_equality_never_reach_a_comparison(attacked):
    r = attacked[0]["evil_values"]
    e = errors(r)
    print(r.score, e)
    assert r.score == 0
    assert "cannot be returned" in e["test_format_table_visible"]


def test_nothing_hidden_or_secret_reaches_the_student(attacked):
    results, out, *_ = attacked
    leak = errors(results["probe"])["test_bf16_round_visible"]
    print(leak)
    assert "FOUND=[]" in leak, "the sandbox holds no hidden test, reference, solution or secret"
    hidden = set()
    for cell in source_nb(LESSON).cells:
        if "### BEGIN HIDDEN TESTS" in cell.source:
            body = cell.source.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
            hidden |= {line.strip() for line in body.splitlines() if len(line.strip()) > 25}
    pages = list((out / "feedback").rglob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text()
        assert "_ref_" not in text and "BEGIN HIDDEN" not in text and SECRET not in text, page
        assert not [line for line in hidden if line in text], page
    for r in results.values():
        for t in r.tests:
            if t.hidden and t.score < t.max_score:
                assert (
                    t.error == "failed (the hidden test's details are not shown)"
                    or t.error.startswith("not run")
                    or t.error.startswith(("timed out", "the student's process", "process limit", "file limit"))
                ), t.error


def test_the_checker_imports_and_reads_nothing_a_student_wrote(attacked):
    r = attacked[0]["hijack"]
    print(r.score, r.status, r.detail, r.notes)
    assert r.score == 0
    assert not [f for f in os.listdir("/tmp") if f.startswith(MARK)], "no planted file ran"


def test_a_hidden_tests_inputs_never_reach_a_visible_message(attacked):
    """Hidden tests run after every visible test: what an answer learns from them reaches no
    message a student reads (the lesson's hidden sequential_sum test comes before the visible
    pairwise_sum test in the notebook)."""
    r = attacked[0]["hidden_inputs"]
    message = errors(r)["test_pairwise_sum_visible"]
    print(message, scores(r))
    assert message.startswith("ValueError: SEEN=")
    # sequential_sum's visible check calls it on 3, 3, 2, 2, 3, 1 and 2 values (its crafted cases); the
    # hidden test's calls (other lengths) come after every visible test, so none shows here
    assert message == "ValueError: SEEN=[3, 3, 2, 2, 3, 1, 2]", "only the visible test's own calls"
    assert scores(r)["test_sequential_sum_hidden"] == 2, "the answer itself is right"


def test_no_other_process_or_socket_is_visible(attacked):
    """The grader talks to the student's process over pipes: no port of any kernel to find."""
    message = errors(attacked[0]["probe"])["test_sequential_sum_visible"]
    print(message)
    assert message == "RuntimeError: PORTS=[]"


def test_no_packet_leaves_the_sandbox(attacked):
    results, _, received, _, _ = attacked
    message = errors(results["probe"])["test_format_table_visible"]
    print(message)
    assert received == [], "nothing arrives at the host's loopback"
    # the sandbox has a loopback of its own: a UDP datagram may be sent there, and is lost
    assert "REACHED=" in message and not {"'tcp'", "'mptcp'", "'tfo'", "'unix'"} & set(
        message.split("REACHED=")[1].strip("[]").split(", ")
    ), message


def test_no_process_outlives_grading_and_nothing_is_left_in_dev_shm(attacked):
    results, _, _, leftover, shm_new = attacked
    assert leftover == [], leftover
    assert shm_new == [], shm_new
    r = results["escape"]
    print(r.status, r.detail, errors(r))
    assert r.status in ("timeout", "tampered") and "process limit reached" in r.detail  # tampered: threading


def test_limits_are_reported_in_the_row_and_cost_only_their_own_tests(attacked):
    r = attacked[0]["limits"]
    e, s = errors(r), scores(r)
    print(r.status, r.detail, e, s)
    assert "file limit reached" in r.detail
    assert "MemoryError" in e["test_bf16_round_visible"] and "memory limit reached" in r.detail
    # the loop times out in its own test; the flood's second round (a restart, then 2,000 files)
    # may also outlast a 10 s cell on a busy machine: either way that test names a limit
    timed_out = re.search(r"timed out in ([\w, ]+)", r.detail)
    assert timed_out and "test_pairwise_sum_visible" in timed_out.group(1).split(", "), r.detail
    assert set(timed_out.group(1).split(", ")) <= {
        "test_format_table_hidden",
        "test_pairwise_sum_visible",
        "test_pairwise_sum_hidden",
    }, "only the tests whose calls loop or flood time out"
    assert r.status == "error" and s["test_pairwise_sum_hidden"] == 0  # a limit reached: error
    assert s["test_sequential_sum_visible"] == 1 and s["test_sequential_sum_hidden"] == 2, "graded after all that"


def test_restarts_and_replays_share_one_time_budget(attacked):
    r = attacked[0]["hang_everywhere"]
    print(r.seconds, r.status, errors(r))
    assert r.status == "timeout"
    assert r.seconds < NOTEBOOK_TIMEOUT + 60, "the notebook's limit covers every cell, restart and replay"


def test_a_killed_process_is_restarted_and_its_startup_files_never_run(attacked):
    r = attacked[0]["takeover"]
    print(r.status, r.detail, errors(r))
    assert r.status == "tampered" and r.score == 0  # it reads frames and imports gc: named in the row
    assert errors(r)["test_sequential_sum_visible"].startswith("the student's process died")


def test_parse_errors_and_refused_names_are_explained(attacked):
    results = attacked[0]
    r = results["parse_error"]
    assert any("does not parse (line 3" in n for n in r.notes), r.notes
    shadow = results["shadow"]
    assert (shadow.score, shadow.status) == (TOTAL, "ok"), shadow.detail
    assert any("isinstance" in n and "FORMATS" in n for n in shadow.notes), shadow.notes


def test_code_aimed_at_the_grader_and_edited_tests_are_flagged(attacked):
    results = attacked[0]
    r = results["static_tamper"]
    assert r.status == "tampered" and r.score == 0 and "input_transformers_cleanup" in r.detail
    r = results["edit_tests"]
    s = scores(r)
    print(r.detail, s)
    assert r.status == "tampered" and "originals restored" in r.detail
    assert "edited test_bf16_round_visible" in r.detail and "deleted test_format_table_hidden" in r.detail
    assert s["test_bf16_round_visible"] == 1 and s["test_format_table_hidden"] == 2, "the originals ran"


def test_unreadable_missing_and_symlinked_submissions_are_explicit(attacked):
    results, out, *_ = attacked
    assert results["unreadable"].status == "error" and "unreadable" in results["unreadable"].detail
    assert len(results["unreadable"].tests) == 8, "every test is listed as not run"
    assert (results["ghost"].status, results["ghost"].max_score) == ("missing", TOTAL)
    link = results["symlinked"]
    assert (link.status, link.score) == ("error", 0) and "symlink" in link.detail
    rows = list(csv.DictReader(open(out / "grades.csv")))
    assert {r["student"] for r in rows} >= {"ghost", "symlinked", "unreadable", "perfect"}
    evil = [r for r in rows if r["student"].startswith("evil")]
    assert evil and "\x1b" not in evil[0]["student"] and "\\x1b" in evil[0]["student"]


def test_gradebook_journal_and_run_record_agree(attacked):
    from nbgrader.api import Gradebook

    results, out, *_ = attacked
    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        for student, r in results.items():
            if r.status == "missing" or "symlink" in r.detail:
                continue
            nb = gb.find_submission_notebook(LESSON, LESSON, student)
            assert (nb.score, nb.max_score) == (r.score, r.max_score), student
    journal = [json.loads(line) for line in open(out / "journal.jsonl")]
    graded = {j["student"] for j in journal if j.get("entry") != "row"}  # a notebook's grade
    assert graded == {s for s, r in results.items() if r.status != "missing" and "symlink" not in r.detail}
    # and every row as the run decided it (missing and refused ones too): the OUT's class, which a
    # rerun with another scope merges with
    assert {j["student"] for j in journal} == set(results)
    run = json.loads((out / "run.json").read_text())
    assert run["emulation"] == "tpu" and isinstance(run["seed"], int) and run["limits"]["cell_timeout"] == CELL_TIMEOUT


def test_the_hosts_disk_and_files_are_out_of_reach(attacked):
    """Red team 3. Folders nested 3,000 deep: a limit reached, the grader keeps going, and every job
    folder (a setuid shell in this one) is removed, however deep. Files or bytes written without end
    inside one call: the call is stopped by the work folder's watch, not by the cell's time. The
    folder where the checker makes each test's temporary folders cannot be swapped for a link."""
    results, _, _, _, left = attacked
    r = results["host_harm"]
    e = errors(r)
    print(r.status, r.detail, e)
    assert left == [], "no job folder and nothing in the link's target outlives grading"
    assert "folders nested too deep" in r.detail
    assert e["test_bf16_round_visible"] == "file limit reached", "stopped by the watch, not the clock"
    assert e["test_sequential_sum_visible"] == "disk limit reached"
    swap = e["test_pairwise_sum_visible"]
    assert "LINK=False" in swap and "done" not in swap.split("SWAP=")[1].split(" LINK")[0], swap
    assert r.score == 0 and r.status == "error"


def test_a_lone_surrogate_in_a_message_stops_nothing(attacked):
    """Red team 3: 'bad \\ud800 value' in an exception (JSON carries it as a lone surrogate) made
    the feedback page unwritable and stopped the outputs of the whole class."""
    results, out, *_ = attacked
    r = results["surrogate"]
    print(r.status, errors(r))
    assert "\ufffd" in errors(r)["test_format_table_visible"]
    pages = {p.parent.name for p in (out / "feedback").rglob("*.html")}
    assert {"surrogate", "takeover", "perfect"} <= pages
    assert (out / "results.json").exists() and (out / "grades.csv").exists()


def test_a_check_that_timed_out_hit_a_limit_or_lost_its_process_is_never_a_wrong_answer(attacked):
    """The class report ranks misconceptions from the outcome each check got where its points were
    decided: this class's timeouts, limits (memory, files, disk) and dead processes are "not
    graded" there, never "wrong", whatever their messages say; tampered notebooks are voided."""
    from autograder import report

    results, out, *_ = attacked
    limits = {t.grade_id: t.outcome for t in results["limits"].tests}
    assert limits["test_pairwise_sum_visible"] == "timed out"
    assert limits["test_bf16_round_visible"] == "limit reached"  # grown to the address-space cap
    host = {t.grade_id: t.outcome for t in results["host_harm"].tests}
    assert host["test_bf16_round_visible"] == host["test_sequential_sum_visible"] == "limit reached"  # files, disk
    assert {t.outcome for t in results["hang_everywhere"].tests} <= {"timed out", "not run"}
    assert {t.outcome for t in results["static_tamper"].tests} == {"voided"}
    data = report.load(out)
    outcome = {(r.student, c.grade_id): c.outcome for r in data.rows for c in r.checks}
    assert outcome == {(r.student, t.grade_id): t.outcome for r in results.values() for t in r.tests}
    seen = set()
    for stats in report.check_stats(data):
        for row, check, why in stats.failures:
            seen.add(check.outcome)
            assert (why == "wrong") == (check.outcome == "wrong"), (row.student, check.grade_id, check.outcome, why)
    assert {"timed out", "limit reached", "voided", "wrong", "unanswered"} <= seen, seen
    assert "id=problems" not in (out / "report.html").read_text()
