"""JupyterLab (the arguments are jupyter-lab's) for as long as its standard input stays open.

`deno task lab` (tools/lab.ts) starts JupyterLab through this file, with a pipe on its standard
input that nothing writes to: the pipe closes when tools/lab.ts ends, however it ends. SIGKILLed
(an editor's force stop, `kill -9`), it can tell JupyterLab nothing, and JupyterLab, in a session
of its own, hears no signal of its group: without this, it served on, with its kernels, and the
next `deno task lab` sent the learner to a terminal that no longer ran it. At the end of its
input, JupyterLab gets the SIGTERM tools/lab.ts sends on Ctrl-C, and stops its kernels, then
itself.
It reads the pipe's file descriptor itself, not `sys.stdin`: a thread that waits in `sys.stdin`
holds the lock of stdin's buffer, which Python takes as it exits, and each stop but a SIGKILL
ended in `Fatal Python error: _enter_buffered_busy` and a dump of threads.
"""

import os
import signal
import sys
import threading

from jupyterlab.labapp import main


def stop_at_end_of_input():
    while os.read(sys.stdin.fileno(), 65536):
        pass
    os.kill(os.getpid(), signal.SIGTERM)


threading.Thread(target=stop_at_end_of_input, daemon=True).start()
sys.exit(main())
