"""Several trained encoders as one ONNX graph that averages their probabilities.

Why an ensemble: retraining the same recipe with another seed moves span F1 by 0.07 and sentence
AUC by 0.02 on the held-out train answers (lab/docs/training.md), so one model's verdicts
carry its seed's noise. Averaging the probabilities of members trained with different seeds (other
data draws, weights and order) removes part of it.

Why one graph: the judge loads one file, checks one checksum and runs one session, exactly as for
a single model, so nothing downstream changes. The members sit side by side on the same three
inputs; their softmaxes are averaged, and the graph's ``logits`` output is the log of that mean,
so the judge's softmax gives back the mean probabilities.
"""

from __future__ import annotations

from pathlib import Path

INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "logits"


def merge(members: list[Path], out: Path) -> None:
    """Write to ``out`` one ONNX model whose ``logits`` are log(mean softmax) of the members'.

    The members must share the three inputs and the ``logits`` output, as every model that
    :func:`rt4chart_lab.training.train.export_onnx` writes (fp32 or quantized) does."""
    import onnx
    from onnx import TensorProto, helper
    from onnx.compose import add_prefix

    if not members:
        raise ValueError("an ensemble needs at least one member")
    loaded = [onnx.load(str(p)) for p in members]
    for path, model in zip(members, loaded):
        names = {i.name for i in model.graph.input}
        if names != set(INPUTS) or [o.name for o in model.graph.output] != [OUTPUT]:
            raise ValueError(f"{path}: expected inputs {INPUTS} and output {OUTPUT!r}, "
                             f"found {sorted(names)} and {[o.name for o in model.graph.output]}")
    prefixed = [add_prefix(m, f"m{k}_", rename_inputs=False) for k, m in enumerate(loaded)]
    nodes, initializers, value_infos, probs = [], [], [], []
    for k, model in enumerate(prefixed):
        nodes.extend(model.graph.node)
        initializers.extend(model.graph.initializer)
        value_infos.extend(model.graph.value_info)
        probs.append(f"m{k}_probs")
        nodes.append(helper.make_node("Softmax", [f"m{k}_{OUTPUT}"], [probs[-1]], axis=-1, name=f"m{k}_softmax"))
    count = helper.make_tensor("ensemble_count", TensorProto.FLOAT, [], [float(len(members))])
    nodes += [
        helper.make_node("Sum", probs, ["ensemble_sum"], name="ensemble_sum"),
        helper.make_node("Div", ["ensemble_sum", "ensemble_count"], ["ensemble_mean"], name="ensemble_mean"),
        helper.make_node("Log", ["ensemble_mean"], [OUTPUT], name="ensemble_log"),
    ]
    output = helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", 3])
    graph = helper.make_graph(nodes, "ensemble", list(loaded[0].graph.input), [output],
                              initializer=initializers + [count], value_info=value_infos)
    opsets: dict[str, int] = {}
    for model in loaded:
        for imp in model.opset_import:
            opsets[imp.domain] = max(opsets.get(imp.domain, 0), imp.version)
    merged = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in sorted(opsets.items())],
                               producer_name="rt4chart-plugins")
    merged.ir_version = max(m.ir_version for m in loaded)
    onnx.checker.check_model(merged)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(merged, str(out))
