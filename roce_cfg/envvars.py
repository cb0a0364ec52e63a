"""Where switch credentials come from (push and lab): the environment, never a file. Kept apart
from roce_cfg.lab so that push does not need the lab's SSH server library (asyncssh)."""

USER_ENV, PASSWORD_ENV = "ROCE_CFG_USERNAME", "ROCE_CFG_PASSWORD"
