"""netmiko connections with the per-platform options that keep them fast and correct
(shared/netmiko-notes.md): Comware with command verification, VRP v8 and RGOS with a read
pattern for the config-mode check, ZXROS entering enable mode before configuring."""

from __future__ import annotations

from typing import Any

from netmiko import BaseConnection, ConnectHandler
from netmiko.huawei.huawei import HuaweiVrpv8SSH
from netmiko.ruijie.ruijie_os import RuijieOSSSH

from roce_cfg.platforms.profile import VendorProfile


class _FastVrpv8(HuaweiVrpv8SSH):
    # The stock check reads with no pattern and waits ~2 s for silence on every call.
    def check_config_mode(
        self, check_string: str = "]", pattern: str = r"[>\]]", force_regex: bool = False
    ) -> bool:
        return BaseConnection.check_config_mode(self, check_string=check_string, pattern=pattern)


class _FastRuijie(RuijieOSSSH):
    def check_config_mode(
        self, check_string: str = ")#", pattern: str = r"[>#]", force_regex: bool = False
    ) -> bool:
        return BaseConnection.check_config_mode(self, check_string=check_string, pattern=pattern)


_CLASSES: dict[str, type[BaseConnection]] = {"huawei_vrpv8": _FastVrpv8, "ruijie_os": _FastRuijie}


def connect(
    profile: VendorProfile, host: str, port: int, username: str, password: str, **extra: Any
) -> BaseConnection:
    params: dict[str, Any] = {
        "device_type": profile.netmiko_device_type,
        "host": host,
        "port": port,
        "username": username,
        "password": password,
        "use_keys": False,
        "allow_agent": False,
        "conn_timeout": 10,
        "fast_cli": True,
        **extra,
    }
    if profile.netmiko_device_type == "hp_comware":
        params["global_cmd_verify"] = True  # with an error pattern, unverified sends idle 2 s/line
    cls = _CLASSES.get(profile.netmiko_device_type)
    conn = cls(**params) if cls else ConnectHandler(**params)
    if not conn.check_enable_mode():
        conn.enable()  # ZXROS's driver configures from '#' only
    return conn
