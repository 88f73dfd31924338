"""Lowering one of our graphs to an ONNX graph, node by node.

Each op has a rule in `RULES` (filled by rules_*.py): `rule(ctx, node, ins)`
gets the ONNX names of the node's inputs and returns the names of its
outputs, adding ONNX nodes through `ctx.b` (a `Builder`). Control flow is
handled here, since our `If` and `While` already hold their code as
subgraphs with explicit captures:

    If(pred, *caps)      ->  If(pred) with then/else branch graphs; a branch's
                             capture placeholders name the outer values
    While(*vars, *caps)  ->  cond0 = cond(vars) inlined before the loop;
                             Loop(max_iter or "", cond0, *vars) whose body is
                             body(vars) followed by cond(new vars)

A TensorArray (a `variant` value) is an ONNX sequence (rules_tensor_array.py);
`ctx.sequences` remembers which names are sequences and their element dtype.
"""

import numpy as np

from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.graph import needed_nodes
from runtime._src.onnx.builder import Builder, ExportError, _onnx, onnx_type

__all__ = ["RULES", "rule", "Context", "lower_graph", "value_info"]

RULES = {}


def rule(*names):
    """Register `fn(ctx, node, ins) -> [output names]` as the rule of ops `names`."""
    def register(fn):
        for name in names:
            if name in RULES:
                raise ValueError(f"ONNX rule for {name!r} defined twice")
            RULES[name] = fn
        return fn
    return register


class Context:
    """Where lowering stands: the ONNX graph being built and the names of our
    tensors in it (looked up through enclosing contexts for captures)."""

    def __init__(self, builder, parent=None):
        self.b = builder
        self.parent = parent
        self.env = {}
        # ONNX sequence names (TensorArrays) -> (element dtype, element TensorShape)
        self.sequences = {} if parent is None else parent.sequences
        # names whose static shape we know better than our graph said (a stacked
        # TensorArray whose writes had a known shape)
        self.shapes = {} if parent is None else parent.shapes
        # names whose value is known while exporting (constants and what we
        # folded from them) -> numpy value; `pending` holds those whose
        # Constant node is not emitted yet: it is, in the graph that folded
        # it, the first time something uses the name (`name`)
        self.constants = {} if parent is None else parent.constants
        self.pending = {} if parent is None else parent.pending
        self.variables = {} if parent is None else parent.variables

    def bind(self, tensor, name):
        self.env[id(tensor)] = name

    def lookup(self, tensor):
        """The ONNX name of `tensor`, without emitting a pending constant."""
        ctx = self
        while ctx is not None:
            found = ctx.env.get(id(tensor))
            if found is not None:
                return found
            ctx = ctx.parent
        raise ExportError(f"internal: no ONNX value for {tensor!r}")

    def name(self, tensor):
        """The ONNX name of `tensor`, for a use of it."""
        name = self.lookup(tensor)
        builder = self.pending.pop(name, None)
        if builder is not None:
            builder.const_named(name, self.constants[name])
        return name

    def known(self, name, value):
        """Bind nothing; say that `name` (not emitted yet) holds `value`."""
        self.constants[name] = value
        self.pending[name] = self.b

    def same_kind(self, source, target):
        """`target` holds what `source` holds: a sequence of the same elements."""
        if source in self.sequences:
            self.sequences[target] = self.sequences[source]
        return target

    def inline(self):
        """A context adding to the same ONNX graph with its own bindings."""
        return Context(self.b, self)

    def nested(self):
        """A context for a subgraph (an If branch, a Loop body)."""
        return Context(Builder(self.b.names, self.b.opset, self.b.root), self)


# Ops that cannot leave Python or have no exact ONNX meaning, and why.
WHY_NOT = {
    "PyFunc": "tf.numpy_function runs Python code, which cannot leave Python",
    "EagerPyFunc": "tf.py_function runs Python code, which cannot leave Python",
    "PrintV2": "ONNX has no print; remove tf.print from the exported function",
    "StringFormat": "ONNX has no string formatting",
    "Assert": "ONNX has no assertion; remove the assert (or tf.debugging.assert_*) from the "
              "exported function, or check the inputs before calling the model",
    "AssertBinary": "ONNX has no assertion; remove the tf.debugging.assert_* call",
    "AssertNear": "ONNX has no assertion; remove the tf.debugging.assert_* call",
    "AssertRank": "ONNX has no assertion; remove the tf.debugging.assert_* call",
    "AssertShapes": "ONNX has no assertion; remove the tf.debugging.assert_* call",
    "CheckNumerics": "ONNX has no assertion; remove tf.debugging.check_numerics",
    "AssignVariableOp": "a model exported to ONNX has frozen weights: it cannot assign a "
                        "Variable",
    "AssignAddVariableOp": "a model exported to ONNX has frozen weights: it cannot assign a "
                           "Variable",
    "AssignSubVariableOp": "a model exported to ONNX has frozen weights: it cannot assign a "
                           "Variable",
    "RandomUniform": "ONNX's random ops do not reproduce our random streams",
    "RandomNormal": "ONNX's random ops do not reproduce our random streams",
    "TruncatedNormal": "ONNX's random ops do not reproduce our random streams",
    "RandomShuffle": "ONNX's random ops do not reproduce our random streams",
    "Multinomial": "ONNX's random ops do not reproduce our random streams",
    "Dropout": "dropout in training mode is random: export the model with training=False",
    "StatelessRandomUniform": "ONNX's random ops do not reproduce our random streams",
    "StatelessRandomNormal": "ONNX's random ops do not reproduce our random streams",
    "StatelessTruncatedNormal": "ONNX's random ops do not reproduce our random streams",
    "StatelessRandomUniformFullInt": "ONNX's random ops do not reproduce our random streams",
    "StatelessMultinomial": "ONNX's random ops do not reproduce our random streams",
    "RngNextSeed": "ONNX's random ops do not reproduce our random streams",
    "StatefulPhiloxDraw": "ONNX's random ops do not reproduce TF's Philox streams",
    "Bitcast": "ONNX has no bitcast (reinterpreting a tensor's bytes as another type)",
    "Erfc": "ONNX has no erfc, and 1 - erf(x) loses every digit for x above 4: use "
            "1 - tf.math.erf(x) in the function if that precision is enough",
    "Cholesky": "ONNX has no Cholesky decomposition",
    "Qr": "ONNX has no QR decomposition",
    "Svd": "ONNX has no singular value decomposition (tf.norm(ord=2) uses one)",
    "SelfAdjointEigV2": "ONNX has no eigendecomposition",
    "MatrixInverse": "ONNX has no matrix inverse (only in Microsoft's contrib domain)",
    "MatrixSolve": "ONNX has no linear solver",
    "MatrixSolveLs": "ONNX has no least-squares solver",
    "MatrixTriangularSolve": "ONNX has no triangular solver",
}
# Lookup tables hold Python state (runtime/_src/ops/lookup_ops.py).
WHY_NOT.update({op: "ONNX has no hash tables: look the keys up before calling the model"
                for op in ("LookupTableFindV2", "LookupTableSizeV2", "LookupTableExportV2",
                           "LookupTableInsertV2", "LookupTableRemoveV2", "InitializeTableV2",
                           "InitializeTableFromTextFileV2")})
# Ops that only gradients make: a model is exported for inference.
WHY_NOT.update({op: "a gradient op: export the function, not its gradient" for op in (
    "AvgPoolGrad", "BiasAddGrad", "ConcatGrad", "Conv2DBackpropFilter", "Conv2DBackpropInput",
    "FrameGrad", "GatherGrad", "LSTMStepGrad", "MaxPoolGrad", "MaxPoolGradGrad", "MirrorPadGrad", "PadGrad",
    "ReciprocalGrad", "ReluGrad", "RepeatGrad", "RsqrtGrad", "SliceGrad", "SqrtGrad",
    "StridedSliceGrad", "TileGrad", "TopKGrad", "IsotonicRegressionGrad", "MaxPoolGradWithArgmax", "LoopAccumulator", "LoopAccumulatorPush",
    "LoopAccumulatorRead", "LoopAccumulatorSize", "LoopAccumulatorGradRead",
    "LoopAccumulatorGradSet", "TensorArrayGradAdd", "TensorArrayGradConcat",
    "TensorArrayGradDrop", "TensorArrayGradDropFirst", "TensorArrayGradEmpty",
    "TensorArrayGradFromStack", "TensorArrayGradGather", "TensorArrayGradRead",
    "TensorArrayGradScatter", "TensorArrayGradSet", "TensorArrayGradSplit",
    "TensorArrayGradStack", "FakeQuantWithMinMaxArgsGradient",
    "FakeQuantWithMinMaxVarsGradient", "FakeQuantWithMinMaxVarsPerChannelGradient",
    "QuantizeAndDequantizeV4Grad")})
WHY_NOT.update({op: "a tf.distribute collective: it runs across a strategy's replicas, "
                    "which an ONNX model (one device, no strategy) does not have" for op in (
    "ReplicaAllReduce", "ReplicaAllGather", "ReplicaId")})
WHY_NOT.update({op: "a SparseTensor's serialized (string) form, for input pipelines: ONNX "
                    "has no protocol buffer parsing; export the model after parsing" for op in (
    "SerializeSparse", "SerializeManySparse", "DeserializeManySparse", "SparseFeatureIndices")})
WHY_NOT["EditDistance"] = "ONNX has no edit distance (a dynamic-programming loop over strings)"
WHY_NOT["CTCGreedyDecoder"] = "its result is a SparseTensor of data-dependent size: decode the " \
                              "model's logits after running it"
WHY_NOT["CTCBeamSearchDecoder"] = WHY_NOT["CTCGreedyDecoder"]
WHY_NOT.update({op: "fractional pooling draws random region sizes each run, a training-time "
                    "regularizer ONNX has no op for; export the model with regular pooling"
                for op in ("FractionalMaxPool", "FractionalAvgPool", "FractionalMaxPoolGrad",
                           "FractionalAvgPoolGrad")})
WHY_NOT["ComputeAccidentalHits"] = "a training-time sampling helper, not part of inference"
WHY_NOT.update({op: "ONNX's QuantizeLinear/DequantizeLinear round half to even over an "
                    "un-nudged range, so they would not give TF's values: export the float "
                    "model without fake quantization" for op in (
    "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel",
    "QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4")})


def _same_reason(names, why):
    for name in names:
        WHY_NOT.setdefault(name, why)


_same_reason(("Angle", "Complex", "ComplexAbs", "Conj", "Imag", "Real", "FFT", "IFFT", "FFT2D",
              "IFFT2D", "FFT3D", "IFFT3D", "FFTND", "IFFTND", "RFFT", "IRFFT", "RFFT2D",
              "IRFFT2D", "RFFT3D", "IRFFT3D", "RFFTND", "IRFFTND"),
             "ONNX has no complex tensors")
_same_reason(("AsString", "BytesSplit", "ReduceJoin", "RegexFullMatch", "RegexReplace",
              "StringJoin", "StringLength", "StringMap", "StringSplitV2",
              "StringToHashBucketFast", "StringToNumber", "Substr", "UnicodeDecode",
              "UnicodeSplit"),
             "tf.strings ops are not exported: ONNX's few string ops mean other things")
_same_reason(("RaggedGatherFlat", "RaggedToDense", "RaggedValueRowIds", "RaggedCross",
              "RaggedRange"),
             "ragged tensors are not exported yet")
_same_reason(("DatasetIterator", "DatasetReduce", "IteratorGetNext", "IteratorGetNextIf",
              "DatasetToSingleElement"),
             "a tf.data pipeline runs in Python: export the function that takes one batch")
_same_reason(("ReadFile", "WriteFile", "ParseTensor", "SerializeTensor", "DecodePng",
              "EncodePng", "DecodeBmp", "DecodeImage", "DecodeJpeg", "DecodeAndCropJpeg",
              "ExtractJpegShape", "EncodeJpeg", "EncodeJpegVariableQuality", "DecodeGif"),
             "file and serialization ops cannot leave Python")
_same_reason(("ResizeAxis", "ResizeAxisGrad"),
             "a resize of an image whose size is known only at run time: export with a "
             "known image size (the static resize exports)")
_same_reason(("WriteSummary",),
             "summaries are written by Python (the tensorboard package): export the "
             "function without tf.summary calls")
_same_reason(("StatefulPartitionedCall",),
             "the record of a tf.function called under an eager GradientTape: never a node "
             "of a traced graph")
_same_reason(("Timestamp",),
             "ONNX has no clock: pass the time in as an input")
_same_reason(("RandomGamma", "RandomPoissonV2", "StatelessRandomGammaV3",
              "StatelessRandomBinomial"),
             "ONNX's random ops do not reproduce our random streams")
_same_reason(("SampleDistortedBoundingBoxV2", "StatelessSampleDistortedBoundingBox"),
             "ONNX's random ops do not reproduce our random streams")
_same_reason(("RGBToHSV", "HSVToRGB", "AdjustHue", "AdjustSaturation", "NonMaxSuppressionV5",
              "NonMaxSuppressionWithOverlaps", "NonMaxSuppressionPadded",
              "CombinedNonMaxSuppression", "DrawBoundingBoxesV2"),
             "this tf.image op has no ONNX rule yet")
_same_reason(("Bincount", "ConfusionMatrix", "SegmentReduce", "Digamma", "Lgamma", "Polygamma",
              "EnsureShape", "ControlGate", "HistogramFixedWidth", "DynamicPartition",
              "DynamicStitch", "MulNoNan", "SpaceToBatchND", "BatchToSpaceND", "UnravelIndex", "InTopKV2",
              "CollapseRepeated", "IsotonicRegression", "CTCLossDense", "CTCUniqueLabels",
              "MaxPoolWithArgmax", "UnsortedSegmentJoin",
              "Frame", "OverlapAndAdd"),
             "this op has no ONNX rule yet")
_same_reason(("Fingerprint", "StringToHashBucket", "StringToHashBucketStrong"),
             "ONNX has no FarmHash, MurmurHash or SipHash: hash the strings before the model")
_same_reason(("UnicodeEncodeDense", "UnicodeTranscode", "UnicodeCharOffsets"),
             "ONNX has no Unicode encoding ops")
WHY_NOT["UnicodeScript"] = ("ONNX has no sorted-run lookup: the script table would be a "
                            "Gather over all 1,114,112 code points")
_same_reason(("SparseAdd", "SparseAddGrad", "SparseBincountDense", "SparseBincountRows",
              "SparseConcat", "SparseCross", "SparseDenseCwiseDiv", "SparseDenseCwiseMul",
              "SparseExpandDims", "SparseEye", "SparseFillEmptyRows", "SparseMaskKeep",
              "SparseRange", "SparseReduceKeepIndices", "SparseReduceMax",
              "SparseReduceMaxSparse", "SparseReduceSum", "SparseReduceSumSparse",
              "SparseReorder", "SparseResetShape", "SparseReshape", "SparseRowIds",
              "SparseSlice", "SparseSliceGrad", "SparseSparseMaximum", "SparseSparseMinimum",
              "SparseSparseSelectGrad", "SparseSplit", "SparseTensorDenseAdd",
              "SparseTensorDenseMatMul", "SparseToDense", "SparseToIndicator", "SetOperation",
              "SetSize"),
             "sparse tensors are not exported yet: pass dense inputs (tf.sparse.to_dense)")
_same_reason(("DatasetToTFRecord", "MatchingFiles"),
             "files are read and written in Python: export the function that takes the data")
_same_reason(("DecodeBase64", "EncodeBase64", "DecodeCSV", "DecodeCompressed",
              "DecodeJSONExample", "DecodeRaw", "ParseExampleV2", "ParseSequenceExampleV2"),
             "ONNX has no decoders for these formats: parse the records before the model")
_same_reason(("BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1",
              "BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "BesselY0", "BesselY1",
              "Betainc", "Dawsn", "Erfinv", "Expint", "FresnelCos", "FresnelSin", "Igamma",
              "IgammaGradA", "Igammac", "Ndtri", "PolygammaOrder", "Spence", "Zeta"),
             "ONNX has no special functions beyond erf (Bessel, incomplete gamma and beta, "
             "zeta, inverse erf, ...)")
_same_reason(("Eig", "Lu", "MatrixExponential", "MatrixLogarithm", "MatrixSquareRoot",
              "MatrixSquareRootGrad", "TridiagonalSolve"),
             "ONNX has no matrix decompositions, matrix functions or linear solvers")
_same_reason(("QueueCloseV2", "QueueDequeueManyV2", "QueueDequeueUpToV2", "QueueDequeueV2",
              "QueueEnqueueManyV2", "QueueEnqueueV2", "QueueIsClosedV2", "QueueSizeV2"),
             "ONNX has no queues: a tf.queue holds Python state")
_same_reason(("DecodeWav", "EncodeWav"), "ONNX has no audio file codecs")
_same_reason(("RandomIndexShuffle", "StatelessShuffle", "CandidateSampler",
              "AllCandidateSampler", "StatelessRandomPoisson",
              "StatelessParameterizedTruncatedNormal"),
             "ONNX's random ops do not reproduce our random streams")
_same_reason(("InvertPermutation", "NextAfter"), "this op has no ONNX rule yet")


def where(node):
    """' (file.py:12)' for the user's line that made `node`, or ''."""
    loc = node.location
    if not loc:
        return ""
    return f" ({loc[0]}:{loc[1]})"


def unsupported(node, why):
    return ExportError(f"cannot export op {node.op!r} (node {node.name}){where(node)} to ONNX: "
                       f"{why}")


def lower_graph(ctx, graph):
    """Lower the nodes of `graph` that a run needs into `ctx` (its inputs and
    captures already bound)."""
    needed = needed_nodes(graph)
    for node in graph.nodes:
        if node not in needed or node.op == "Placeholder":
            continue
        if _fold(ctx, node) or _constant_if(ctx, node):
            continue
        fn = RULES.get(node.op)
        if fn is None:
            raise unsupported(node, WHY_NOT.get(node.op, "this op has no ONNX rule yet"))
        try:
            outs = fn(ctx, node, [ctx.name(t) for t in node.inputs])
        except ExportError as e:
            if "cannot export op" in str(e):
                raise
            raise unsupported(node, str(e)) from None
        for t, name in zip(node.outputs, outs):
            ctx.bind(t, name)


def _fold(ctx, node):
    """Compute a node whose inputs are all known constants with its own kernel
    and bind its outputs to ONNX constants. Exported models stay smaller, and
    no `If` is left with a constant condition (ONNX Runtime 1.24 and later
    crash inlining such an If while creating a session)."""
    if node.op == "Const":
        value = node.attrs["value"]
        if getattr(value, "dtype", None) is None or value.dtype.kind not in "biuf":
            return False
        name = ctx.b.names.fresh(node.name)
        ctx.known(name, value)
        ctx.bind(node.outputs[0], name)
        return True
    if (node.stateful or node.subgraph_list() or not node.inputs
            or node.op in _NEVER_FOLDED):
        return False
    names = [ctx.lookup(t) for t in node.inputs]
    if not all(n in ctx.constants for n in names):
        return False
    try:
        result = node.opdef.kernel(*[ctx.constants[n] for n in names], **node.attrs)
    except Exception:  # noqa: BLE001 - an op that fails here is exported as an op
        return False
    values = list(result) if isinstance(result, (tuple, list)) else [result]
    if len(values) != len(node.outputs):
        return False
    arrays = [np.asarray(v) for v in values]
    if any(a.dtype.kind not in "biuf" or a.size > 1024 for a in arrays):
        return False
    for t, a in zip(node.outputs, arrays):
        name = ctx.b.names.fresh(node.name)
        ctx.known(name, a.astype(t.dtype.np_dtype, copy=False))
        ctx.bind(t, name)
    return True


def _constant_if(ctx, node):
    """An If whose condition is known while exporting: only one branch runs,
    so it is lowered in place (no If node)."""
    if node.op != "If" or ctx.lookup(node.inputs[0]) not in ctx.constants:
        return False
    branch = "then_branch" if ctx.constants[ctx.lookup(node.inputs[0])] else "else_branch"
    captured = [ctx.lookup(t) for t in node.inputs[1:]]
    outs = _run_inline(ctx.inline(), node.attrs[branch], (), captured, use=False)
    for t, name in zip(node.outputs, outs):
        ctx.bind(t, name)
    return True


_NEVER_FOLDED = frozenset({"Placeholder", "ReadVariableOp"})


def value_info(ctx, name, tensor, symbolic=None):
    """The ValueInfoProto of `name`, holding our `tensor` (a sequence when it
    is a TensorArray). `symbolic` names the unknown dimensions (model inputs)."""
    helper = _onnx().helper
    seq = ctx.sequences.get(name)
    if seq is not None:
        return helper.make_tensor_sequence_value_info(name, onnx_type(seq[0]), None)
    if tensor.dtype.name == "variant":
        raise ExportError(f"value {tensor.name} is a {tensor.dtype.name} with no ONNX type")
    dims = TensorShape(tensor.shape).dims
    if dims is None and name in ctx.shapes:
        dims = ctx.shapes[name].dims
    shape = None
    if dims is not None:
        shape = [d if d is not None else (symbolic(i) if symbolic else None)
                 for i, d in enumerate(dims)]
    return helper.make_tensor_value_info(name, onnx_type(tensor.dtype), shape)


def subgraph(ctx, graph, name, input_names=(), inputs_proto=()):
    """Lower `graph` into a nested ONNX graph whose outputs are identities of
    its results (ONNX wants subgraph outputs produced inside it)."""
    outs = []
    for t in graph.outputs:
        outs.append(ctx.same_kind(ctx.name(t), ctx.b.add1("Identity", [ctx.name(t)],
                                                          name=f"{name}_out")))
    infos = [value_info(ctx, n, t) for n, t in zip(outs, graph.outputs)]
    return _onnx().helper.make_graph(ctx.b.nodes, ctx.b.names.fresh(name), list(inputs_proto),
                                     infos, initializer=ctx.b.initializers)


@rule("If")
def _if(ctx, node, ins):
    pred, captured = ins[0], ins[1:]
    branches, branch_outs = {}, {}
    for key in ("then_branch", "else_branch"):
        g = node.attrs[key]
        inner = ctx.nested()
        for (_, placeholder), outer in zip(g.captures, captured):
            inner.bind(placeholder, outer)
        lower_graph(inner, g)
        branches[key] = subgraph(inner, g, key)
        branch_outs[key] = [inner.name(t) for t in g.outputs]
    outs = ctx.b.add("If", [pred], len(node.outputs), **branches)
    for out, a, b in zip(outs, branch_outs["then_branch"], branch_outs["else_branch"]):
        if a in ctx.sequences:
            ctx.sequences[out] = merge_sequences(ctx.sequences[a], ctx.sequences[b])
    return outs


@rule("While")
def _while(ctx, node, ins):
    cond, body = node.attrs["cond"], node.attrs["body"]
    n = node.attrs["num_loop_vars"]
    if node.attrs.get("accumulator"):
        raise ExportError("a loop recording its iterations for a gradient cannot be exported; "
                          "export the function, not its gradient")
    limit = ""
    if node.attrs["has_maximum_iterations"]:
        limit = ctx.b.cast(ins[-1], "int64")
        ins = ins[:-1]
    initial, captured = ins[:n], ins[n:]
    first = ctx.inline()
    cond0 = _run_inline(first, cond, initial, captured)[0]

    inner = ctx.nested()
    helper = _onnx().helper
    names = ctx.b.names
    iteration, cond_in = names.fresh("iteration"), names.fresh("cond_in")
    carried = [names.fresh(f"{node.name}_{p.name.split(':')[0]}") for p in body.inputs]
    for name, initial_name in zip(carried, initial):
        ctx.same_kind(initial_name, name)
    proto_inputs = [helper.make_tensor_value_info(iteration, onnx_type("int64"), []),
                    helper.make_tensor_value_info(cond_in, onnx_type("bool"), [])]
    proto_inputs += [_loose_info(inner, c, p) for c, p in zip(carried, body.inputs)]
    new = _run_inline(inner, body, carried, captured)
    for value, name in zip(body.outputs, new):
        inner.bind(value, name)
    again = _run_inline(inner.inline(), cond, new, captured)[0]
    stop = inner.b.add1("Identity", [again], name="cond_out")
    outs = []
    for name in new:
        outs.append(ctx.same_kind(name, inner.b.add1("Identity", [name],
                                                     name=f"{node.name}_next")))
    out_infos = [helper.make_tensor_value_info(stop, onnx_type("bool"), [])]
    out_infos += [_loose_info(inner, o, t) for o, t in zip(outs, body.outputs)]
    graph = helper.make_graph(inner.b.nodes, names.fresh(f"{node.name}_body"), proto_inputs,
                              out_infos, initializer=inner.b.initializers)
    results = ctx.b.add("Loop", [limit, cond0, *initial], n, name=node.name, body=graph)
    for result, name, last in zip(results, initial, outs):
        ctx.same_kind(name, result)
        if name in ctx.sequences and last in ctx.sequences:
            ctx.sequences[result] = merge_sequences(ctx.sequences[name], ctx.sequences[last])
    return results


def _run_inline(ctx, graph, input_names, captured, use=True):
    """Lower `graph` into `ctx` with its inputs bound to `input_names`;
    returns the names of its outputs (`use`: as used, emitting constants)."""
    for placeholder, name in zip(graph.inputs, input_names):
        ctx.bind(placeholder, name)
    for (_, placeholder), outer in zip(graph.captures, captured):
        ctx.bind(placeholder, outer)
    lower_graph(ctx, graph)
    return [(ctx.name if use else ctx.lookup)(t) for t in graph.outputs]


def _loose_info(ctx, name, tensor):
    """A value info with the dtype only: loop variables may change shape."""
    helper = _onnx().helper
    seq = ctx.sequences.get(name)
    if seq is not None:
        return helper.make_tensor_sequence_value_info(name, onnx_type(seq[0]), None)
    return helper.make_tensor_value_info(name, onnx_type(tensor.dtype), None)


def merge_sequences(a, b):
    """The (dtype, element shape) of a value that is sequence `a` or `b`."""
    if a[1] is None or b[1] is None:     # None: no element written yet
        return a[0], a[1] if b[1] is None else b[1]
    return a[0], a[1].most_specific_compatible_shape(b[1])
