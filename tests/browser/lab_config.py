# Configuration for the classic Notebook server that the browser test starts
# (tests/browser/notebook_server.ts passes it with --config). It serves the
# repository read-only: every file is reported as not writable, so the page
# never autosaves, and any save, rename or delete is refused, so a run can
# never change a committed notebook.

from notebook.services.contents.largefilemanager import LargeFileManager
from tornado.web import HTTPError


class ReadOnlyContentsManager(LargeFileManager):
    def _base_model(self, path):
        model = super()._base_model(path)
        model["writable"] = False
        return model

    def save(self, model, path=""):
        raise HTTPError(403, "The browser test serves the repository read-only")

    def delete_file(self, path):
        raise HTTPError(403, "The browser test serves the repository read-only")

    def rename_file(self, old_path, new_path):
        raise HTTPError(403, "The browser test serves the repository read-only")


c.NotebookApp.contents_manager_class = ReadOnlyContentsManager  # noqa: F821 (set by Jupyter)
