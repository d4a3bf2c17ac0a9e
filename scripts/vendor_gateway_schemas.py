"""Write the Gateway API schemas the Kubernetes recipe is checked against
(deploy/schemas/gateway-api-*/): each CRD's openAPIV3Schema for its served v1 version, its
descriptions dropped (the checks need only the structure).

    python scripts/vendor_gateway_schemas.py GATEWAY_API_CHECKOUT TAG

GATEWAY_API_CHECKOUT is a git clone of https://github.com/kubernetes-sigs/gateway-api and TAG
one of its releases (v1.6.1): the experimental channel's CRDs are read from that tag, since
HTTPRoute's sessionPersistence is in the experimental channel. The schemas are Apache-2.0, as
the project that writes them (deploy/schemas/gateway-api-*/NOTICE).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"GatewayClass": "gatewayclasses", "Gateway": "gateways", "HTTPRoute": "httproutes"}


def _without_descriptions(node):
    if isinstance(node, dict):
        return {k: _without_descriptions(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [_without_descriptions(v) for v in node]
    return node


def main(checkout: str, tag: str) -> int:
    out = ROOT / "deploy" / "schemas" / f"gateway-api-{tag}"
    out.mkdir(parents=True, exist_ok=True)
    for kind, plural in KINDS.items():
        path = f"config/crd/experimental/gateway.networking.k8s.io_{plural}.yaml"
        crd = yaml.safe_load(
            subprocess.run(
                ["git", "-C", checkout, "show", f"{tag}:{path}"], check=True, capture_output=True, text=True
            ).stdout
        )
        assert crd["spec"]["names"]["kind"] == kind
        (version,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1" and v["served"]]
        schema = _without_descriptions(version["schema"]["openAPIV3Schema"])
        (out / f"{kind.lower()}-v1.json").write_text(
            json.dumps(schema, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
    (out / "NOTICE").write_text(
        f"The JSON files here are the openAPIV3Schema of the GatewayClass, Gateway and HTTPRoute\n"
        f"CustomResourceDefinitions (version v1, experimental channel) of the Kubernetes Gateway API,\n"
        f"release {tag}: https://github.com/kubernetes-sigs/gateway-api/tree/{tag}/config/crd/experimental\n"
        f"with their descriptions removed, written by scripts/vendor_gateway_schemas.py.\n\n"
        f"Copyright The Kubernetes Authors. Licensed under the Apache License, Version 2.0:\n"
        f"https://www.apache.org/licenses/LICENSE-2.0\n",
        encoding="utf-8",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
