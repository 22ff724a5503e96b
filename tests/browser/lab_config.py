# Configuration for the JupyterLab server that the browser test starts
# (tests/browser/lab_server.ts passes it with --config). It serves the
# repository read-only: every file is reported as not writable, so the page
# never saves, and any save, rename or delete is refused, so a run can never
# change a committed notebook, and no checkpoint folder is made. Nothing is fetched from outside: no news, no
# update check.

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from tornado.web import HTTPError


class ReadOnlyContentsManager(AsyncLargeFileManager):
    def _base_model(self, path):
        model = super()._base_model(path)
        model["writable"] = False
        return model

    async def save(self, model, path=""):
        raise HTTPError(403, "The browser test serves the repository read-only")

    async def delete_file(self, path):
        raise HTTPError(403, "The browser test serves the repository read-only")

    async def rename_file(self, old_path, new_path):
        raise HTTPError(403, "The browser test serves the repository read-only")

    # No checkpoints either: listing them would make .ipynb_checkpoints/ folders.
    async def list_checkpoints(self, path):
        return []

    async def create_checkpoint(self, path):
        raise HTTPError(403, "The browser test serves the repository read-only")


c.ServerApp.contents_manager_class = ReadOnlyContentsManager  # noqa: F821 (set by Jupyter)
c.LabApp.news_url = None  # noqa: F821
c.LabApp.check_for_updates_class = "jupyterlab.NeverCheckForUpdate"  # noqa: F821
# window.jupyterapp, so that the test can ask the page about its kernel.
c.LabApp.expose_app_in_browser = True  # noqa: F821
