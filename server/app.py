"""The FastAPI app: OpenEnv's create_fastapi_app around KernelEnvironment, plus GET /tasks.

Run it with `uv run server` (port 8000; PORT overrides) or serve `server.app:app` with uvicorn.
Configuration comes from the environment (server/config.py); a bad value stops start-up.
"""

from __future__ import annotations

import json
import sys
import time

from server.config import Config, ConfigError, load_config


def build_services(config: Config):
    from server.eval_log import EvalLog
    from server.evaluators import GpuEvaluator, CpuEvaluator, MockEvaluator
    from server.kernel_environment import Services
    from server.tasks import TaskStore

    common = dict(reward_mode=config.reward, roofline_reject=config.roofline_reject,
                  nominal_gpu=config.nominal_gpu, stage_timeouts=config.stage_timeouts,
                  memory_limit_gb=config.worker_memory_gb, provenance=config.provenance)
    if config.evaluator == "gpu":
        evaluator = GpuEvaluator(config.gpus, spares=config.spares, visible=config.gpu_visible,
                                 **common)
    elif config.evaluator == "cpu":
        evaluator = CpuEvaluator(config.cpu_workers, **common)
    else:
        evaluator = MockEvaluator(**common)
    services = Services()
    services.config, services.tasks = config, TaskStore(config.tasks_dir)
    services.evaluator, services.log = evaluator, EvalLog(config.eval_log)
    return services


UNSERVED = frozenset({"/mcp"})  # OpenEnv's MCP routes, replaced (create_kernel_app)


def create_kernel_app(config: Config | None = None):
    """A ready app for `config` (default: from the environment); starts the worker pool."""
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.types import ConcurrencyConfig

    from kernel_env.models import KernelAction, KernelObservation, KernelState
    from server.kernel_environment import KernelEnvironment

    config = config or load_config()
    services = build_services(config)
    env_cls = type("KernelEnvironmentSession", (KernelEnvironment,), {"services": services})
    # create_fastapi_app, not create_app: create_app reads ENABLE_WEB_INTERFACE (which `openenv
    # push` sets for a Space) and then serves /web/reset, /web/step, /web/state and /ws/ui on ONE
    # environment shared by every visitor, outside the session cap: each saw the others'
    # submitted code and results, and could reset or step their episode (red-team pass 70).
    app = create_fastapi_app(
        env_cls, KernelAction, KernelObservation, env_name="kernel_env", state_cls=KernelState,
        # No idle reaper: it freed the slot of a connected WebSocket whose session went on
        # playing, so the cap no longer held (red-team pass 47). A session lasts as long as its
        # connection; a dropped one is found by the WebSocket's pings and frees its slot, and
        # an idle one is closed (server/idle_sessions.py).
        concurrency_config=ConcurrencyConfig(max_concurrent_envs=config.max_sessions,
                                             session_timeout=None),
    )

    # OpenEnv's MCP routes: kernel_env has no MCP tools, and `openenv/session/create` over HTTP
    # took session slots no WebSocket held (four requests locked every client out for the idle
    # timeout) while `openenv/session/close` freed a live WebSocket's slot (no cap at all). The
    # HTTP route is answered below, without sessions.
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) not in UNSERVED]

    from fastapi.responses import JSONResponse

    from server.request_limits import holds_a_lone_surrogate

    async def mcp(request):
        """OpenEnv's JSON-RPC endpoint (the standard's validator asks for it), answered without
        MCP: no tools, and no sessions made here."""
        try:
            body = await request.json()
        except (ValueError, RecursionError):  # malformed, or nested past the parser's limit
            body = None
        request_id = body.get("id") if isinstance(body, dict) else None
        if not (type(request_id) is int
                or (type(request_id) is str and not holds_a_lone_surrogate(request_id))):
            request_id = None  # (a lone surrogate echoed back made the reply unserialisable: 500)
        if isinstance(body, dict) and body.get("method") == "tools/list":
            return JSONResponse({"jsonrpc": "2.0", "id": request_id, "result": {"tools": []}})
        return JSONResponse({"jsonrpc": "2.0", "id": request_id, "error": {
            "code": -32601, "message": "kernel_env serves no MCP tools or sessions; play episodes "
                                       "over the WebSocket (/ws: reset and step messages, as the "
                                       "KernelEnv client does)"}})

    app.add_route("/mcp", mcp, methods=["POST"])

    from server.kernel_environment import EpisodeError
    from server.request_limits import BodyLimit, NoWebSocketMcp

    from server.idle_sessions import IdleClose, OpenSessions

    sessions = OpenSessions()
    app.add_middleware(BodyLimit)
    app.add_middleware(NoWebSocketMcp)
    # outermost: its clock sees the client's messages as they come, the filtered ones too
    app.add_middleware(IdleClose, timeout_s=config.idle_timeout_s, counter=sessions)

    from fastapi.encoders import jsonable_encoder
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import Response

    from starlette.exceptions import HTTPException as StarletteHTTPException

    def ascii_json(status: int, detail, headers=None) -> Response:
        """FastAPI's error body, escaped to ASCII: errors echo the input, and a lone surrogate
        in a field that failed validation made the default reply a 500 (red-team pass 80)."""
        if status < 200 or status in (204, 304):
            return Response(status_code=status, headers=headers)
        body = json.dumps({"detail": jsonable_encoder(detail)}, ensure_ascii=True)
        return Response(body, status_code=status, headers=headers, media_type="application/json")

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request, exc: RequestValidationError):
        return ascii_json(422, exc.errors())

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request, exc: StarletteHTTPException):
        return ascii_json(exc.status_code, exc.detail, getattr(exc, "headers", None))

    @app.exception_handler(EpisodeError)
    async def episode_error(_request, exc: EpisodeError):
        """A call the episode cannot accept (unknown task, step before reset, ...) is the
        client's error: 400 with what was wrong, as the WebSocket path reports it."""
        return ascii_json(400, str(exc))  # (it may quote the client's own text)

    @app.get("/tasks", tags=["kernel_env"])
    def list_tasks() -> dict:
        """Task ids by split, and where they come from (bundled or kernelbench)."""
        return {"source": config.tasks_source,
                **{split: services.tasks.ids(split) for split in ("train", "eval")}}

    started = time.monotonic()

    @app.get("/status", tags=["kernel_env"])
    def status() -> dict:
        """What an operator watches over a long run: the evaluation slots (evaluating or free,
        their worker host up), the steps waiting for a slot, the WebSocket sessions open."""
        return {"evaluator": config.evaluator, "tasks": config.tasks_source,
                **services.evaluator.pool.status(),
                "sessions": {"open": sessions.open, "max": config.max_sessions},
                "uptime_s": round(time.monotonic() - started, 1)}

    app.router.on_shutdown.append(services.evaluator.close)
    app.state.services = services
    services.evaluator.start()
    return app


def __getattr__(name: str):
    """`server.app:app` is built on first access, so importing this module starts nothing."""
    if name == "app":
        globals()["app"] = create_kernel_app()
        return globals()["app"]
    raise AttributeError(name)


def main() -> None:
    try:
        config = load_config()
    except ConfigError as exc:
        sys.exit(f"kernel_env: configuration error: {exc}")
    import uvicorn

    from server.header_deadline import HeaderDeadlineProtocol
    from server.request_limits import MAX_WS_MESSAGE_BYTES

    print(f"kernel_env: evaluator={config.evaluator} tasks={config.tasks_source} ({config.tasks_dir}) "
          f"port={config.port} max_sessions={config.max_sessions}", file=sys.stderr, flush=True)
    uvicorn.run(create_kernel_app(config), host="0.0.0.0", port=config.port,
                ws_max_size=MAX_WS_MESSAGE_BYTES, http=HeaderDeadlineProtocol,
                log_config=_logging_to_stderr(uvicorn))


def _logging_to_stderr(uvicorn) -> dict:
    """uvicorn's log configuration with its access log on stderr: stdout carries the JSON log
    (server/eval_log.py), whose lines the access log's were found glued to."""
    import copy

    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    return config


if __name__ == "__main__":
    main()
