# Run one cell in a Deno kernel, then end that kernel as a learner's session
# may: a restart (Kernel > Restart), or a crash (the kernel killed). Reads
# {"cwd", "code", "expect", "end": "restart" | "crash"} on stdin (`expect`: a
# part of the output to wait for) and prints the cell's
# output as JSON, after the kernel has ended. Used by
# tests/playground_cleanup_test.ts, with the course's own kernelspec on
# JUPYTER_PATH.

import json
import os
import queue
import signal
import sys
import time

from jupyter_client.manager import KernelManager

job = json.load(sys.stdin)
km = KernelManager(kernel_name="deno")
km.start_kernel(cwd=job["cwd"], env=os.environ.copy())
output = []
try:
    kc = km.client()
    kc.start_channels()
    # Bounds against a hang, long enough for a busy machine (not timings).
    kc.wait_for_ready(timeout=600)

    def keep(message):
        content = message["content"]
        if message["msg_type"] == "stream":
            output.append(content["text"])
        elif message["msg_type"] in ("execute_result", "display_data"):
            output.append(content["data"].get("text/plain", ""))
        elif message["msg_type"] == "error":
            output.append(f"{content['ename']}: {content['evalue']}")

    kc.execute_interactive(job["code"], output_hook=keep, timeout=120)
    # Deno's kernel may go idle before it forwards the cell's last output: wait for it.
    deadline = time.monotonic() + 60
    while job["expect"] not in "".join(output) and time.monotonic() < deadline:
        try:
            keep(kc.get_iopub_msg(timeout=0.5))
        except queue.Empty:
            pass
    kc.stop_channels()
    if job["end"] == "restart":
        km.restart_kernel(now=False)
    else:
        os.kill(km.provisioner.pid, signal.SIGKILL)
        while km.is_alive():
            time.sleep(0.1)
finally:
    km.shutdown_kernel(now=True)
print(json.dumps({"output": "".join(output)}), flush=True)
