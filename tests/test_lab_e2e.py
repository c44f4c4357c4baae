"""The real interface: JupyterLab with nbgrader's extensions, driven in headless Chromium.

One JupyterLab server on a free loopback port (with a token) serves a scratch copy of the course,
started by the same code as ``make lab`` (autograder/course/lab.py). Playwright drives Debian's Chromium
(``/usr/bin/chromium``, or $CHROMIUM) through the page a student sees: open lesson 02, Run All
Cells, the cells before the first exercise give outputs and a figure, the first exercise's stub
raises NotImplementedError in its visible test. Then the instructor's Nbgrader > Formgrader panel
lists the course's assignments. Screenshots go to build/lab/*.png.

Chromium comes from Debian (``make browser``; this file runs ``apt-get install -y chromium`` itself
when it runs as root and /usr/bin/chromium is missing). Playwright never downloads a browser here.
Where no Chromium can be had, the tests are skipped with the reason.
"""

import contextlib
import json
import os
import secrets
import shutil
import subprocess

import nbformat
import pytest

from autograder.course.lab import course_copy, ensure_exchange, free_port, populate_gradebook, start_lab, stop_lab
from autograder.common.notebooks import lessons
from conftest import ROOT

# make compat (CI): a real JupyterLab in Chromium, rarely changed
pytestmark = [pytest.mark.slow, pytest.mark.compat]

LESSON = "02_matmul_accumulation"  # runs in ~10 s on a CPU
SHOTS = ROOT / "build" / "lab"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Headless on a machine with a closed network: no GPU, no sandbox (root), no background traffic.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RUN_TIMEOUT_MS = 240_000  # the whole lesson, generous for a loaded 2-core CI machine


def chromium_or_reason() -> str | None:
    """Make sure Chromium is there (installing Debian's package as root); else say why not."""
    if shutil.which(CHROMIUM):
        return None
    apt = shutil.which("apt-get")
    if CHROMIUM != "/usr/bin/chromium" or not apt or os.geteuid() != 0:
        return (
            f"no Chromium at {CHROMIUM}, and it cannot be installed here "
            "(needs root and apt-get: `make browser` runs `apt-get install -y chromium`)"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    log = []
    for cmd in ([apt, "update", "-qq"], [apt, "install", "-y", "-qq", "chromium"]):
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            return f"`{' '.join(cmd)}` timed out"
        log.append(r.stdout[-1500:] + r.stderr[-1500:])
        if r.returncode != 0 and cmd[1] == "install":
            return f"`apt-get install -y chromium` failed ({r.returncode}):\n" + "\n".join(log)
    return None if shutil.which(CHROMIUM) else f"{CHROMIUM} still missing after apt-get install"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a scratch copy of the course, gradebook filled by generate_assignment."""
    tmp = tmp_path_factory.mktemp("lab")
    course = course_copy(tmp / "course")
    populate_gradebook(course, [LESSON])
    ensure_exchange(course)
    home = tmp / "jupyter"  # no user settings, workspaces or IPython profiles from this machine
    news = home / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)  # no "Would you like to get notified about Jupyter news?" toast
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_DATA_DIR=str(home / "data"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        IPYTHONDIR=str(home / "ipython"),
    )
    for var in ("COURSE_EMULATE", "MPLBACKEND"):  # a student's kernel: real backend, inline plots
        env.pop(var, None)
    token, port = secrets.token_hex(16), free_port()
    log_path = tmp / "jupyterlab.log"
    with open(log_path, "w") as log:
        proc = start_lab(course, port, token, env=env, log=log)
    try:
        yield {"base": f"http://127.0.0.1:{port}", "token": token, "course": course, "log": log_path}
    finally:
        stop_lab(proc)


@pytest.fixture(scope="module")
def browser():
    reason = chromium_or_reason()
    if reason:
        pytest.skip(reason)
    # playwright is pinned in pyproject.toml; a missing one is a broken install, not a skip.
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=shutil.which(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser, lab):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    try:
        yield pg
    finally:
        context.close()


@contextlib.contextmanager
def evidence(page, lab, name):
    """On failure keep a screenshot (build/lab/failed_NAME.png) and show the server's log."""
    try:
        yield
    except BaseException:
        page.screenshot(path=str(SHOTS / f"failed_{name}.png"))
        print(f"--- jupyterlab.log (tail) ---\n{lab['log'].read_text()[-6000:]}")
        raise


def menu(page, top: str, item: str) -> None:
    """Click a JupyterLab main-menu entry, e.g. Run > Run All Cells."""
    page.locator(".lm-MenuBar-itemLabel", has_text=top).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=item).first.click()


def kernel_idle(page, timeout=60_000) -> None:
    """Wait until the status bar says "<kernel> | Idle" (not "No Kernel | Initializing")."""
    page.wait_for_function(
        "() => { const s = document.querySelector('.jp-StatusBar-Widget');"
        " return s && /\\| Idle/.test(s.innerText) && !/No Kernel/.test(s.innerText); }",
        timeout=timeout,
    )


def code_cells_before_first_answer(nb):
    cells = []
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):
            return cells
        if cell.cell_type == "code":
            cells.append(cell)
    raise AssertionError("the lesson has no exercise")


def test_student_runs_lesson_in_jupyterlab(page, lab):
    from playwright.sync_api import expect

    with evidence(page, lab, "student"):
        url = f"{lab['base']}/lab/tree/notebooks/{LESSON}/{LESSON}.ipynb?token={lab['token']}"
        page.goto(url)
        notebook = page.locator(".jp-NotebookPanel:visible .jp-Notebook")
        notebook.wait_for()
        kernel_idle(page)  # the notebook's kernel has started and is connected

        menu(page, "Run", "Run All Cells")
        # The first exercise's visible test calls the stub: its traceback ends the run (the queued
        # cells after it are aborted, as for a student who pressed Run All).
        error = notebook.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']", has_text="NotImplementedError"
        ).first
        error.wait_for(timeout=RUN_TIMEOUT_MS)
        kernel_idle(page, RUN_TIMEOUT_MS)
        page.wait_for_function(
            "() => ![...document.querySelectorAll('.jp-InputPrompt')].some(p => p.textContent.includes('[*]'))",
            timeout=RUN_TIMEOUT_MS,
        )

        figure = notebook.locator(".jp-OutputArea-output img").first
        figure.scroll_into_view_if_needed()
        expect(figure).to_be_in_viewport()
        assert figure.evaluate("img => img.naturalWidth") > 100, "the bar chart is drawn"
        page.screenshot(path=str(SHOTS / "01_student_figure.png"))
        error.scroll_into_view_if_needed()
        expect(error).to_be_in_viewport()
        page.screenshot(path=str(SHOTS / "02_student_stub_error.png"))

        # What the browser ran, as saved by JupyterLab (File > Save Notebook).
        menu(page, "File", "Save Notebook")
        page.wait_for_function("() => !document.querySelector('.lm-TabBar-tab.jp-mod-dirty')")
        saved = lab["course"] / "notebooks" / LESSON / f"{LESSON}.ipynb"
        nb = nbformat.read(str(saved), as_version=4)
        before = code_cells_before_first_answer(nb)
        assert before and all(c.execution_count for c in before), "every cell before exercise 1 ran"
        for c in before:
            assert c.outputs, f"no output from:\n{c.source[:200]}"
            assert not [o for o in c.outputs if o.output_type == "error"], json.dumps(c.outputs)[:2000]
        assert any("image/png" in o.get("data", {}) for c in before for o in c.outputs), "a figure"
        errors = [
            (i, o.ename)
            for i, c in enumerate(nb.cells)
            if c.cell_type == "code"
            for o in c.outputs
            if o.output_type == "error"
        ]
        first_answer = next(i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("solution"))
        assert errors and errors[0] == (first_answer + 1, "NotImplementedError"), errors


def test_formgrader_lists_the_course(page, lab):
    with evidence(page, lab, "formgrader"):
        page.goto(f"{lab['base']}/lab?token={lab['token']}")
        page.locator(".jp-LabShell").wait_for()
        menu(page, "Nbgrader", "Formgrader")
        frame = page.frame_locator("iframe[src*='formgrader']")
        table = frame.locator("#main-table")
        for lesson in lessons(lab["course"]):
            table.locator("td", has_text=lesson).first.wait_for()
        # The exchange works: each released lesson (notebooks/) can be released to students.
        assert frame.get_by_text("does not exist and could not be created").count() == 0
        row = table.locator("tr", has_text=LESSON).first
        row.locator("td", has_text="draft").wait_for()
        row.locator("td.release .glyphicon-cloud-upload").wait_for()  # the Release button
        page.screenshot(path=str(SHOTS / "03_formgrader.png"))
