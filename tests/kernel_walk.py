# A learner's walk through one unit, cell by cell, in one session of the real
# Deno kernel (nbclient, from the course's virtual environment), driven by
# tests/learner_walk_test.ts. The plan comes as JSON on stdin:
#   {"student": PATH, "worked": PATH, "env": {...}, "timeout": SECONDS}
# 1. run the untouched student copy (at PATH, in its own folder) top to bottom;
# 2. write the exercises but not the predictions (the common order): each cell
#    the learner writes a function in takes the worked edition's source; save
#    the notebook (as JupyterLab would), and run just those cells;
# 3. run again, in order, each cell that said in step 1 that it was waiting
#    (↷): a step that shows a prediction's answer must still wait;
# 4. write the predictions too, run those cells, and run again each cell that
#    waited in step 1;
# 5. restart the kernel and run every cell, as Restart & Run All does.
# After steps 1 and 5, with the kernel still running, it lists the processes
# the kernel started that are still running: those that carry the kernel's
# test-run mark (MCP_COURSE_SUITE in its environment), but for the kernel
# itself and its companions, which live as long as it does by design (a
# process whose command line holds one of the plan's "companions", and its
# children). It prints one JSON report: for each step, each cell run, with its
# id, its text outputs and its errors; and what was left running.

import json
import os
import re
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.util import run_sync

plan = json.load(sys.stdin)
student = nbformat.read(plan["student"], as_version=4)
worked = {cell.id: cell for cell in nbformat.read(plan["worked"], as_version=4).cells}


def learners(cell):
    """Whether a worked cell holds a learner's part: a solution beyond the edition's name."""
    if cell.cell_type != "code":
        return False
    parts = cell.source.split("// BEGIN SOLUTION")[1:]
    solutions = [part.split("// END SOLUTION")[0].strip() for part in parts]
    return any(not re.fullmatch(r'const EDITION = "instructor";', s) for s in solutions)


def predicts(cell):
    """Whether a worked cell is where the learner writes predictions."""
    return cell.cell_type == "code" and "predictions.record(" in cell.source


def seen(cell):
    """A cell's outputs as the report gives them: the text, and the errors."""
    text, errors = [], []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            text.append(output.text)
        elif output.output_type == "error":
            errors.append(f"{output.ename}: {output.evalue}")
        else:
            text.append(output.get("data", {}).get("text/plain", ""))
    return {"id": cell.id, "text": "".join(text), "errors": errors}


def left_running(kernel):
    """The live processes with the kernel's test-run mark, but for the kernel and its companions."""
    mark = f"MCP_COURSE_SUITE={plan['env']['MCP_COURSE_SUITE']}".encode()
    marked = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            # Ended, as process_group.ts's hasEnded says: a zombie with no other thread running.
            ended = fields[0] in (b"Z", b"X") and int(fields[17]) <= 1
            parent = fields[1]
            with open(f"/proc/{pid}/environ", "rb") as environ:
                ours = mark in environ.read().split(b"\0")
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue  # it ended meanwhile
        if ours and not ended and int(pid) != kernel:
            marked[int(pid)] = (int(parent), command)
    companions = {
        pid for pid, (_, command) in marked.items()
        if any(name in command for name in plan.get("companions", []))
    }
    return [
        f"{pid} {command}" for pid, (parent, command) in marked.items()
        if pid not in companions and parent not in companions
    ]


folder = plan["student"].rsplit("/", 1)[0]
client = NotebookClient(
    student,
    timeout=plan.get("timeout", 300),
    startup_timeout=plan.get("timeout", 300),
    kernel_name="deno",
    allow_errors=True,
    resources={"metadata": {"path": folder}},
)
report = {"all": [], "exercises": [], "unpredicted": [], "waiting": [], "restarted": [], "left": {}}
with client.setup_kernel(env=plan["env"]):
    cells = list(enumerate(student.cells))
    for index, cell in cells:
        if cell.cell_type == "code":
            client.execute_cell(cell, index)
            report["all"].append(seen(cell))
    report["left"]["after Run All"] = left_running(client.km.provisioner.pid)
    waited = [cell.id for cell in student.cells if "↷" in seen(cell)["text"]]
    exercises = [i for i, cell in cells if cell.id in worked and learners(worked[cell.id])]
    functions = [i for i in exercises if not predicts(worked[student.cells[i].id])]
    guesses = [i for i in exercises if i not in functions]
    for part, step in ((functions, "unpredicted"), (guesses, "waiting")):
        for index in part:
            student.cells[index].source = worked[student.cells[index].id].source
        nbformat.write(student, plan["student"])
        for index in part:
            client.execute_cell(student.cells[index], index)
            report["exercises"].append(seen(student.cells[index]))
        for index, cell in cells:
            if cell.id in waited:
                client.execute_cell(cell, index)
                report[step].append(seen(cell))
    run_sync(client.km.restart_kernel)(now=False)
    run_sync(client.kc.wait_for_ready)(timeout=plan.get("timeout", 300))
    for index, cell in cells:
        if cell.cell_type == "code":
            client.execute_cell(cell, index)
            report["restarted"].append(seen(cell))
    report["left"]["after Restart & Run All"] = left_running(client.km.provisioner.pid)
print(json.dumps(report))
