# ruff: noqa: E501  (config lines are as long as switches print them)
"""How the planted-secrets configs beside this file were made: a golden leaf of each vendor
(so every command runs on it) with hand-written credential lines in every usual form added.
Every planted secret contains PLANTED; tests/test_secrets.py greps every output for it.

Run from the repository root: python tests/data/secrets/make.py
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parents[2] / "golden"

# (after this line, insert these lines)
FORMS: dict[str, list[tuple[str, str]]] = {
    "h3c": [
        (
            " sysname leaf-1\n#\n",
            """\
 super password role network-admin simple PLANTED-h3c-super
 super password role level-15 hash $h$6$PLANTED-h3c-superhash==
#
 snmp-agent
 snmp-agent community read simple PLANTED-h3c-community-ro
 snmp-agent community write cipher $c$3$PLANTED-h3c-community-rw==
 snmp-agent sys-info version v2c v3
 snmp-agent group v3 grp privacy
 snmp-agent usm-user v3 nms grp simple authentication-mode sha PLANTED-h3c-v3auth privacy-mode aes128 PLANTED-h3c-v3priv
 snmp-agent usm-user v3 nms2 grp cipher authentication-mode sha $c$3$PLANTED-h3c-v3authc== privacy-mode aes128 $c$3$PLANTED-h3c-v3privc==
 snmp-agent target-host trap address udp-domain 10.9.9.9 params securityname PLANTED-h3c-trap v2c
#
 ntp-service authentication enable
 ntp-service authentication-keyid 1 authentication-mode md5 simple PLANTED-h3c-ntp
 ntp-service authentication-keyid 2 authentication-mode md5 cipher $c$3$PLANTED-h3c-ntpc==
#
radius scheme aaa-rad
 primary authentication 10.9.9.10 1812 key simple PLANTED-h3c-radsrv
 key authentication simple PLANTED-h3c-radius
 key accounting cipher $c$3$PLANTED-h3c-radacct==
#
hwtacacs scheme aaa-tac
 primary authentication 10.9.9.11
 key authentication simple PLANTED-h3c-tacacs
 key authorization cipher $c$3$PLANTED-h3c-tacauthz==
#
local-user admin class manage
 password hash $h$6$PLANTED-h3c-localhash==
 service-type ssh
 authorization-attribute user-role network-admin
#
local-user ops class manage
 password simple PLANTED-h3c-localsimple
 service-type ssh
#
local-user quoted class manage
 password simple "Quoted PLANTED-h3c-quoted"
#
ospf 1
 area 0.0.0.0
  authentication-mode md5 2 plain PLANTED-h3c-ospfarea
  authentication-mode simple cipher $c$3$PLANTED-h3c-ospfsimple==
#
isis 1
 area-authentication-mode md5 plain PLANTED-h3c-isisarea
 domain-authentication-mode simple cipher $c$3$PLANTED-h3c-isisdomain==
#
""",
        ),
        (
            " peer 10.1.0.0 description spine-1\n",
            """\
 peer 10.1.0.0 password simple PLANTED-h3c-bgp
 peer 10.1.0.2 password cipher $c$3$PLANTED-h3c-bgpc==
""",
        ),
        (
            "interface LoopBack0\n",
            """\
 ospf authentication-mode md5 1 plain PLANTED-h3c-ospfif
 isis authentication-mode md5 cipher $c$3$PLANTED-h3c-isisif==
""",
        ),
    ],
    "huawei": [
        (
            "sysname leaf-1\n#\n",
            """\
super password level 15 cipher %^%#PLANTED-huawei-super%^%#
#
snmp-agent
snmp-agent community read cipher %^%#PLANTED-huawei-community-ro%^%#
snmp-agent community write PLANTED-huawei-community-rw
snmp-agent sys-info version v2c v3
snmp-agent usm-user v3 nms authentication-mode sha cipher %^%#PLANTED-huawei-v3auth%^%# privacy-mode aes128 cipher %^%#PLANTED-huawei-v3priv%^%#
snmp-agent usm-user v3 nms2 authentication-mode sha PLANTED-huawei-v3authp privacy-mode aes128 PLANTED-huawei-v3privp
snmp-agent target-host trap address udp-domain 10.9.9.9 params securityname cipher %^%#PLANTED-huawei-trap%^%# v2c
snmp-agent target-host trap address udp-domain 10.9.9.8 params securityname PLANTED-huawei-trapp v2c
#
ntp authentication enable
ntp authentication-keyid 1 authentication-mode md5 cipher %^%#PLANTED-huawei-ntp%^%#
ntp authentication-keyid 2 authentication-mode hmac-sha256 PLANTED-huawei-ntpp
#
radius-server template aaa-rad
 radius-server shared-key cipher %^%#PLANTED-huawei-radius%^%#
 radius-server authentication 10.9.9.10 1812 shared-key cipher %^%#PLANTED-huawei-radsrv%^%# weight 80
#
hwtacacs-server template aaa-tac
 hwtacacs-server shared-key cipher %^%#PLANTED-huawei-tacacs%^%#
#
aaa
 local-user admin password irreversible-cipher $1c$PLANTED-huawei-local$
 local-user admin service-type ssh
 local-user admin level 3
#
ospf 1
 area 0.0.0.0
  authentication-mode md5 1 plain PLANTED-huawei-ospfarea
  authentication-mode hmac-sha256 2 cipher %^%#PLANTED-huawei-ospfc%^%#
#
isis 1
 area-authentication-mode md5 plain PLANTED-huawei-isisarea
 domain-authentication-mode simple cipher %^%#PLANTED-huawei-isisdomain%^%#
#
""",
        ),
        (
            " peer 10.1.0.0 description spine-1\n",
            """\
 peer 10.1.0.0 password cipher %^%#PLANTED-huawei-bgp%^%#
 peer 10.1.0.2 password simple PLANTED-huawei-bgpp
""",
        ),
        (
            "interface LoopBack0\n",
            """\
 ospf authentication-mode md5 1 plain PLANTED-huawei-ospfif
 isis authentication-mode simple plain PLANTED-huawei-isisif
""",
        ),
    ],
    "ruijie": [
        (
            "hostname leaf-1\n!\n",
            """\
enable secret 5 $1$PLANTED-ruijie-enable
enable password 0 PLANTED-ruijie-enablep
!
username admin privilege 15 password 0 PLANTED-ruijie-local
username ops password 7 PLANTED-ruijie-local7
username auditor secret 5 $1$PLANTED-ruijie-localsecret
username quoted password 0 "Quoted PLANTED-ruijie-quoted"
!
snmp-server community 0 PLANTED-ruijie-community ro
snmp-server community 7 PLANTED-ruijie-community7 rw
snmp-server user nms grp v3 auth sha PLANTED-ruijie-v3auth priv aes128 PLANTED-ruijie-v3priv
snmp-server host 10.9.9.9 traps version 2c PLANTED-ruijie-trap
snmp-server host 10.9.9.8 traps PLANTED-ruijie-trapnover
snmp-server host 10.9.9.7 PLANTED-ruijie-trapbare udp-port 162
!
radius-server host 10.9.9.10 key 7 PLANTED-ruijie-radius
radius-server key 0 PLANTED-ruijie-radiusglobal
tacacs-server host 10.9.9.11 key PLANTED-ruijie-tacacs
!
ntp authentication-key 1 md5 PLANTED-ruijie-ntp 0
!
router isis 1
 area-password PLANTED-ruijie-isisarea
 domain-password PLANTED-ruijie-isisdomain
!
key chain routing-keys
 key 1
  key-string 7 PLANTED-ruijie-keystring
!
""",
        ),
        (
            " neighbor 10.1.0.0 description spine-1\n",
            """\
 neighbor 10.1.0.0 password 0 PLANTED-ruijie-bgp
 neighbor 10.1.0.2 password 7 PLANTED-ruijie-bgp7
""",
        ),
        (
            "interface FourHundredGigabitEthernet 0/1\n",
            """\
 ip ospf message-digest-key 1 md5 PLANTED-ruijie-ospfmd5
 ip ospf authentication-key 7 PLANTED-ruijie-ospfkey
 isis password PLANTED-ruijie-isisif
""",
        ),
    ],
    "zte": [
        (
            "hostname leaf-1\n",
            """\
enable secret level 15 5 $1$PLANTED-zte-enable
username admin password encrypted PLANTED-zte-local privilege 15
username ops password PLANTED-zte-localplain privilege 1
username quoted password "Quoted PLANTED-zte-quoted" privilege 1
""",
        ),
        (
            "!</system-config>\n",
            """\
!<snmp>
snmp-server community PLANTED-zte-community view AllView ro
snmp-server community encrypted PLANTED-zte-communitye rw
snmp-server user nms grp v3 encrypted auth sha PLANTED-zte-v3auth priv aes128 PLANTED-zte-v3priv
snmp-server host 10.9.9.9 trap version 2c PLANTED-zte-trap udp-port 162
snmp-server host 10.9.9.8 trap PLANTED-zte-trapnover
!</snmp>
!<aaa>
radius-server host 10.9.9.10 key PLANTED-zte-radius
tacacs-server host 10.9.9.11 key encrypted PLANTED-zte-tacacs
radius authentication-group 1
  server 1 10.9.9.12 master key PLANTED-zte-radgroup
  server 2 10.9.9.13 key encrypted PLANTED-zte-radgroupe
$
!</aaa>
!<ntp>
ntp authentication-key 1 md5 PLANTED-zte-ntp
!</ntp>
""",
        ),
        (
            "  neighbor 10.1.0.0 description spine-1\n",
            """\
  neighbor 10.1.0.0 password PLANTED-zte-bgp
  neighbor 10.1.0.2 password encrypted PLANTED-zte-bgpe
""",
        ),
        (
            "interface loopback1\n",
            """\
  ip ospf message-digest-key 1 md5 PLANTED-zte-ospfmd5
  ip ospf authentication-key PLANTED-zte-ospfkey
""",
        ),
    ],
}


def main() -> None:
    for vendor, forms in FORMS.items():
        text = (GOLDEN / f"pod-small-{vendor}" / "leaf-1.cfg").read_text(encoding="utf-8")
        for anchor, lines in forms:
            assert anchor in text, (vendor, anchor)
            text = text.replace(anchor, anchor + lines, 1)
        (HERE / f"{vendor}.cfg").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
