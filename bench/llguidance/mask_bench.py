"""llguidance's side of row 10 of `deno task bench` (bench/mask_bench.ts runs it).

Reads a job (JSON) that bench/mask_bench.ts writes: the vocabulary (o200k_base,
as gpt-tokenizer has it), the schemas, each instance already tokenized, and the
scores of the random model that generations sample from. For each schema: does
llguidance compile it, does it accept each instance token by token (and the
stop token after it), how long does each mask take to fill, and what does it
generate. Writes the results (JSON); the instances' verdicts and the
generations are judged by the Deno side, with ajv.

    .venv/bin/python mask_bench.py JOB.json RESULT.json
"""

import json
import sys
import time

import llguidance
import llguidance.numpy
import numpy as np

# tiktoken's o200k_base split pattern (llguidance uses it to tokenize text, which this never asks of it)
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
COMPACT = {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"}


def allowed(mask, token):
    return (int(mask[0, token >> 5]) >> (token & 31)) & 1 == 1


def main(job_path, result_path):
    with open(job_path) as file:
        job = json.load(file)
    stop = job["stop"]
    ranks = {bytes.fromhex(token): rank for rank, token in enumerate(job["vocab"])}
    tokenizer = llguidance.LLTokenizer.from_tiktoken(
        encoder=ranks, special_tokens=job["special"], pattern=O200K_PATTERN, eos_token=stop,
        n_vocab=job["size"])
    scores = np.array(job["scores"], dtype=np.float64)
    mask = llguidance.numpy.allocate_token_bitmask(1, tokenizer.vocab_size)
    results = []
    for entry in job["schemas"]:
        result = {"name": entry["name"], "compiled": False, "fillNs": [], "instances": [], "generations": []}
        results.append(result)
        started = time.process_time()  # CPU time, as the Deno side measures compiling
        try:
            grammar = llguidance.LLMatcher.grammar_from_json_schema(entry["schema"], defaults=COMPACT)
            is_error, messages = llguidance.LLMatcher.validate_grammar_with_warnings(grammar, tokenizer)
        except Exception as error:  # noqa: BLE001 - any refusal is "not compiled"
            result["error"] = str(error)[:300]
            continue
        if is_error:
            result["error"] = str(messages)[:300]
            continue
        matcher = llguidance.LLMatcher(tokenizer, grammar, log_level=0)
        result["compileMs"] = (time.process_time() - started) * 1000
        if matcher.is_error():
            result["error"] = matcher.get_error()[:300]
            continue
        result["compiled"] = True
        for instance in entry["instances"]:
            matcher.reset()
            accepted = True
            for token in instance["tokens"] + [stop]:
                began = time.perf_counter_ns()
                llguidance.numpy.fill_next_token_bitmask(matcher, mask)
                result["fillNs"].append(time.perf_counter_ns() - began)
                if not allowed(mask, token) or not matcher.consume_token(token):
                    accepted = False
                    break
            result["instances"].append(accepted)
        for seed in range(1, job["generations"] + 1):
            matcher.reset()
            random = np.random.default_rng(seed)
            tokens = []
            while len(tokens) < job["maxTokens"]:
                llguidance.numpy.fill_next_token_bitmask(matcher, mask)
                bits = np.unpackbits(mask[0].view(np.uint8), bitorder="little")[: tokenizer.vocab_size]
                ids = np.nonzero(bits)[0]
                if len(ids) == 0:
                    break
                weights = np.exp(scores[ids] - scores[ids].max())
                token = int(random.choice(ids, p=weights / weights.sum()))
                tokens.append(token)
                if not matcher.consume_token(token) or token == stop:
                    break
            result["generations"].append(tokens)
    with open(result_path, "w") as file:
        json.dump({"version": llguidance.__version__,
                   "schemas": results}, file)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
