"""deploy/kubernetes.yaml, validated offline: the core kinds against Kubernetes' own schemas
with kubernetes-validate (strict: a misspelt or misplaced field fails), the Gateway API kinds
against the v1.6.1 CRD schemas vendored in deploy/schemas/ (made strict the same way); and
the parts a class depends on: cookie session persistence on the route, no ingress-nginx, and
torch's threads capped to the pod's CPU limit."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
RECIPE = ROOT / "deploy" / "kubernetes.yaml"
SCHEMAS = ROOT / "deploy" / "schemas" / "gateway-api-v1.6.1"
KUBERNETES = "1.34.0"  # a release the cluster runs; kubernetes-validate ships its schemas
GATEWAY_API = "gateway.networking.k8s.io/v1"


def documents() -> list[dict]:
    return [d for d in yaml.safe_load_all(RECIPE.read_text(encoding="utf-8")) if d]


def strict(schema):
    """The schema with unknown fields refused wherever it lists the known ones, as the API
    server prunes or (with kubectl's --validate=strict) refuses them; a field that preserves
    unknown fields is left open."""
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if "properties" in node and not node.get("x-kubernetes-preserve-unknown-fields"):
                node.setdefault("additionalProperties", False)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def gateway_schema(kind: str) -> dict:
    schema = json.loads((SCHEMAS / f"{kind.lower()}-v1.json").read_text(encoding="utf-8"))
    return strict(schema)


def check_gateway_api(document: dict) -> None:
    jsonschema.validate(
        document, gateway_schema(document["kind"]), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def _ids():
    return [f"{d['kind']}/{d['metadata']['name']}" for d in documents()]


@pytest.mark.parametrize("index", range(len(documents())), ids=_ids())
def test_every_document_validates(index):
    document = documents()[index]
    if document["apiVersion"] == GATEWAY_API:
        check_gateway_api(document)
    else:
        kubernetes_validate.validate(document, KUBERNETES, strict=True)


def test_the_validators_refuse_what_a_cluster_would_refuse():
    """Controls: each validator fails on a misspelt field and on a wrong value, so the test
    above can fail."""
    route = next(d for d in documents() if d["kind"] == "HTTPRoute")
    bad = copy.deepcopy(route)
    bad["spec"]["rules"][0]["sessionPersistence"]["sessionname"] = "sa_route"
    with pytest.raises(jsonschema.ValidationError, match="sessionname"):
        check_gateway_api(bad)
    bad = copy.deepcopy(route)
    bad["spec"]["rules"][0]["sessionPersistence"]["type"] = "Sticky"
    with pytest.raises(jsonschema.ValidationError, match="Sticky"):
        check_gateway_api(bad)
    bad = copy.deepcopy(route)
    bad["spec"]["rules"][0]["timeouts"]["request"] = "1 day"
    with pytest.raises(jsonschema.ValidationError):
        check_gateway_api(bad)
    deployment = next(d for d in documents() if d["kind"] == "Deployment")
    bad = copy.deepcopy(deployment)
    bad["spec"]["template"]["spec"]["containers"][0]["resource"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, KUBERNETES, strict=True)
    bad = copy.deepcopy(deployment)
    bad["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, KUBERNETES, strict=True)


def test_no_ingress_and_no_ingress_nginx_annotation():
    text = RECIPE.read_text(encoding="utf-8")
    assert "nginx.ingress.kubernetes.io" not in text
    assert all(d["kind"] != "Ingress" for d in documents())
    for document in documents():
        assert not any("ingress" in key for key in document["metadata"].get("annotations", {}))


def test_the_route_keeps_a_browser_on_its_pod_with_a_cookie_and_no_request_timeout():
    by_kind = {}
    for d in documents():
        by_kind.setdefault(d["kind"], []).append(d)
    (route,) = by_kind["HTTPRoute"]
    (gateway,) = by_kind["Gateway"]
    (rule,) = route["spec"]["rules"]
    assert rule["sessionPersistence"]["type"] == "Cookie"
    assert rule["sessionPersistence"]["sessionName"] == "sa_route", "the cookie of deploy/seeing-attention.nginx.conf"
    assert rule["timeouts"]["request"] == "0s", "a lesson's websocket is never cut by a request timeout"
    assert route["spec"]["parentRefs"] == [{"name": gateway["metadata"]["name"]}]
    app_service = next(d for d in by_kind["Service"] if d["metadata"]["name"] == "seeing-attention")
    (backend,) = rule["backendRefs"]
    assert backend == {"name": "seeing-attention", "port": app_service["spec"]["ports"][0]["port"]}
    classes = {c["metadata"]["name"]: c["spec"]["controllerName"] for c in by_kind.get("GatewayClass", [])}
    assert classes[gateway["spec"]["gatewayClassName"]] == "gateway.envoyproxy.io/gatewayclass-controller"


def test_torchs_threads_and_the_apps_parallel_work_follow_the_pods_cpu_limit():
    app = next(d for d in documents() if d["metadata"]["name"] == "seeing-attention" and d["kind"] == "Deployment")
    (container,) = app["spec"]["template"]["spec"]["containers"]
    assert container["resources"]["limits"]["cpu"], "a CPU limit to follow"
    env = {e["name"]: e for e in container["env"]}
    for name in ("OMP_NUM_THREADS", "TRAINING_SLOTS", "GENERATION_LANES"):
        ref = env[name]["valueFrom"]["resourceFieldRef"]
        assert ref["resource"] == "limits.cpu" and ref["containerName"] == container["name"], name
    assert env["ATTENTION_CPU"]["value"] == "off", "pods sharing a node's cores are not pinned by process id"
    probe_port = container["readinessProbe"]["httpGet"]["port"]
    assert probe_port in {p.get("name") for p in container["ports"]} | {p["containerPort"] for p in container["ports"]}


def test_the_student_link_is_the_gateways_https_address():
    """Phones reach the Gateway, never a pod: PUBLIC_URL names its HTTPS hostname."""
    docs = documents()
    app = next(d for d in docs if d["metadata"]["name"] == "seeing-attention" and d["kind"] == "Deployment")
    (container,) = app["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e for e in container["env"]}
    (gateway,) = [d for d in docs if d["kind"] == "Gateway"]
    https = next(listener for listener in gateway["spec"]["listeners"] if listener["protocol"] == "HTTPS")
    assert env["PUBLIC_URL"]["value"] == f"https://{https['hostname']}"


def test_the_rooms_redis_keeps_its_data_across_a_restart():
    """An append-only file, synced every second, in a folder on a claimed volume: a restarted
    Redis reads its rooms back."""
    docs = documents()
    redis = next(d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "seeing-attention-rooms")
    (container,) = redis["spec"]["template"]["spec"]["containers"]
    args = container["args"]
    option = {args[i]: args[i + 1] for i in range(0, len(args) - 1) if args[i].startswith("--")}
    assert option["--appendonly"] == "yes" and option["--appendfsync"] == "everysec"
    (mount,) = container["volumeMounts"]
    assert option["--dir"] == mount["mountPath"], "the file is written on the volume"
    volumes = {v["name"]: v for v in redis["spec"]["template"]["spec"]["volumes"]}
    claim = volumes[mount["name"]]["persistentVolumeClaim"]["claimName"]
    claims = [d for d in docs if d["kind"] == "PersistentVolumeClaim" and d["metadata"]["name"] == claim]
    assert claims and claims[0]["spec"]["accessModes"] == ["ReadWriteOnce"]
    assert redis["spec"]["strategy"]["type"] == "Recreate", "one pod holds the volume at a time"
