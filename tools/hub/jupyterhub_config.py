# JupyterHub's configuration for the course's workshop hub. `deno task hub`
# (tools/hub/hub.ts) writes the settings this reads to a file only root can
# read, names it in COURSE_HUB_SETTINGS, and runs `jupyterhub -f` on this file.
#
# Each learner is a local system account, logged in with PAM and spawned by
# LocalProcessSpawner as themselves: their own home (mode 0700), their own
# processes, so one learner's code cannot read another's work. The Deno
# kernelspec and Deno's cache live in the hub's state folder, outside every
# home, and the course comes by nbgitpuller from the learners' release.

import json
import os

c = get_config()  # noqa: F821 (JupyterHub defines it)

with open(os.environ["COURSE_HUB_SETTINGS"]) as file:
    settings = json.load(file)

c.JupyterHub.bind_url = f"http://127.0.0.1:{settings['port']}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = settings["hub_port"]
c.ConfigurableHTTPProxy.command = [settings["proxy"]]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{settings['proxy_api_port']}"
c.JupyterHub.db_url = f"sqlite:///{settings['state']}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = f"{settings['state']}/jupyterhub_cookie_secret"
# Stopping the hub stops every learner's server, and the proxy with it.
c.JupyterHub.cleanup_servers = True
c.JupyterHub.cleanup_proxy = True

c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = set(settings["learners"])
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [f"{settings['venv']}/bin/jupyterhub-singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.notebook_dir = "~"
c.Spawner.http_timeout = 120
c.Spawner.environment = {
    # Deno (PyPI's, pinned) and Jupyter from the hub's environment, before the system's.
    "PATH": f"{settings['venv']}/bin:/usr/local/bin:/usr/bin:/bin",
    # The Deno kernelspec, installed for every learner where no home volume can hide it.
    "JUPYTER_PATH": f"{settings['state']}/share/jupyter",
    # Deno's cache, filled by the hub from the release and read-only to learners.
    "DENO_DIR": settings["deno_dir"],
    "DENO_NO_UPDATE_CHECK": "1",
    "NO_COLOR": "1",
    # Lets git (nbgitpuller) clone the release the hub's owner keeps, and reads ~/.gitconfig.
    "GIT_CONFIG_GLOBAL": f"{settings['state']}/gitconfig",
}
# The course's test-run mark (tools/suite_mark.ts), kept so that the run which started the hub
# can tell that a learner's server outlived it.
if "MCP_COURSE_SUITE" in os.environ:
    c.Spawner.environment["MCP_COURSE_SUITE"] = os.environ["MCP_COURSE_SUITE"]

# The instructor's service: manages learners and their servers through the REST API.
c.JupyterHub.services = [{"name": "course-admin", "api_token": settings["token"]}]
c.JupyterHub.load_roles = [
    {
        "name": "course-admin",
        "scopes": ["admin:users", "admin:servers", "tokens", "list:users"],
        "services": ["course-admin"],
    }
]
