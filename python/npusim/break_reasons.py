"""Why Dynamo split a model into several graphs, or compiled none of it (the capture's
errors and warnings name these)."""


def graph_break_reasons(torch):
    """Dynamo's graph break reasons so far (its counters), each with how often."""
    try:
        from torch._dynamo.utils import counters
    except Exception:  # noqa: BLE001
        return []
    return [f"{reason} (x{n})" if n > 1 else str(reason)
            for reason, n in sorted(counters.get("graph_break", {}).items(), key=str)]


def no_graph_reasons(torch, model):
    """Why Dynamo may have compiled nothing: its counters of breaks, unsupported
    constructs and frames, and modules it runs eagerly by configuration."""
    reasons = list(graph_break_reasons(torch))
    try:
        from torch._dynamo.utils import counters

        reasons += [f"unsupported: {k}" for k in sorted(counters.get("unimplemented", {}), key=str)]
        frames = dict(counters.get("frames", {}))
        if frames:
            reasons.append("frames " + ", ".join(f"{k} {v}" for k, v in sorted(frames.items())))
        import torch._dynamo.config as dynamo_config

        rnns = sorted({type(m).__name__ for m in model.modules()
                       if isinstance(m, torch.nn.modules.rnn.RNNBase)})
        if rnns and getattr(dynamo_config, "allow_rnn", None) is False:
            reasons.append(f"torch._dynamo.config.allow_rnn is False: Dynamo runs "
                           f"{', '.join(rnns)} eagerly")
    except Exception:  # noqa: BLE001
        pass
    return "; ".join(reasons) or "no reason reported"
