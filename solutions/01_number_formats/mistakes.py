"""Known wrong answers to 01_number_formats's exercises: course content for instructors, never released.

Each is a plausible mistake a student makes, with its code (``source``), a short ``name`` and an
``explanation`` a student reads when the grader finds that their function behaves like it, and the
lesson ``section`` to re-read. The grader diagnoses failed checks against them; the test suite
grades each one and asserts it loses only its own exercise. Plain data (read with
ast.literal_eval, never imported). How to add one: docs/AUTHORING.md."""

# Numbers compared by value, whatever type carries them (autograder/common/mistakes.py): the reason.
NUMBERS_BY_VALUE = {
    "format_table": "a table of numbers: finfo's NumPy scalars and Python floats alike",
}

MISTAKES = [
    # ---------------------------------------------------------- format_table
    {
        "id": "nmant-plus-one",
        "function": "format_table",
        "name": "mantissa bits count the implicit leading 1",
        "explanation": "Your table counts one mantissa bit more than each format stores: it includes the leading 1 of a normal number. That bit is implicit, never stored, so a format's mantissa width is only its fraction bits. Revisit how a normal number's value is built from its three fields.",
        "section": "1. A float is three bit fields",
        "why": "mantissa_bits counts the implicit leading 1 (nmant + 1)",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant) + 1, "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    {
        "id": "e4m3-not-e4m3fn",
        "function": "format_table",
        "name": "float8_e4m3 (with inf) used for float8_e4m3fn",
        "explanation": "Your float8_e4m3fn row describes float8_e4m3, a different format that reserves its whole top exponent for inf and NaN, so its largest value is 240. The fn variant (finite, no inf) keeps only one pattern for NaN and reaches 448. Revisit what the all-ones exponent means in each format.",
        "section": "1. A float is three bit fields",
        "why": "float8_e4m3 (with inf, max 240) instead of float8_e4m3fn",
        "source": """
def format_table():
    rows = []
    for name, t in (("float32", np.float32), ("bfloat16", ml_dtypes.bfloat16), ("float16", np.float16),
                    ("float8_e4m3fn", ml_dtypes.float8_e4m3), ("float8_e5m2", ml_dtypes.float8_e5m2)):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant), "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    {
        "id": "smallest-subnormal",
        "function": "format_table",
        "name": "smallest normal taken as the smallest subnormal",
        "explanation": "Your smallest_normal is the smallest subnormal number, far below the smallest normal one. Subnormals (exponent field all zeros) give up the implicit leading 1 to reach further toward zero, and the smallest normal number is where they stop. Revisit the two cases of the value formula, normal and subnormal.",
        "section": "1. A float is three bit fields",
        "why": "smallest_normal taken as the smallest subnormal",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant), "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_subnormal)})
    return rows
""",
    },
    {
        "id": "exponent-bits-no-sign",
        "function": "format_table",
        "name": "exponent width forgets the sign bit",
        "explanation": "Your exponent width is the total width minus the mantissa bits, so it also counts the sign bit and comes out one too large. A float is three fields (sign, exponent, mantissa), and only the exponent field sets the range. Revisit the layout of the three fields.",
        "section": "1. A float is three bit fields",
        "why": "exponent_bits = bits - mantissa_bits (forgets the sign bit)",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.bits - fi.nmant),
                     "mantissa_bits": int(fi.nmant), "eps": float(fi.eps), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    {
        "id": "eps-as-unit-roundoff",
        "function": "format_table",
        "name": "eps taken as the unit roundoff (half of eps)",
        "explanation": "Your eps is half the real value: it is the unit roundoff, the largest relative error of rounding to nearest. Machine epsilon is the gap between 1.0 and the next larger number, one ulp at 1. Revisit how the spacing between neighbours relates to the mantissa width.",
        "section": "2. Precision: the spacing between neighbours (ulp)",
        "why": "eps taken as the unit roundoff eps/2",
        "source": """
def format_table():
    rows = []
    for t in (np.float32, ml_dtypes.bfloat16, np.float16, ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e5m2):
        fi = ml_dtypes.finfo(t)
        rows.append({"name": np.dtype(t).name, "bits": int(fi.bits), "exponent_bits": int(fi.nexp),
                     "mantissa_bits": int(fi.nmant), "eps": 2.0 ** -(int(fi.nmant) + 1), "max": float(fi.max),
                     "smallest_normal": float(fi.smallest_normal)})
    return rows
""",
    },
    # ------------------------------------------------------------ bf16_round
    {
        "id": "float16-not-bfloat16",
        "function": "bf16_round",
        "name": "rounds to float16 instead of bfloat16",
        "explanation": "Your function rounds to float16, not bfloat16. The two are both 16 bits wide but split them differently: float16 has more mantissa bits and a much smaller range, so it keeps digits bfloat16 drops and overflows where bfloat16 does not. Revisit how the two formats trade range against precision.",
        "section": "3. Range: float16 overflows where bfloat16 does not",
        "why": "rounds to float16 instead of bfloat16",
        "source": """
def bf16_round(x):
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float32)
""",
    },
    {
        "id": "truncates",
        "function": "bf16_round",
        "name": "truncates instead of rounding to nearest even",
        "explanation": "Your function drops the low 16 bits, which always rounds toward zero. That is a biased rounding: the error always has the same sign and accumulates over many values. Revisit round to nearest, ties to even, and what happens when the dropped bits are above, below or exactly at half an ulp.",
        "section": "4. Round to nearest, ties to even",
        "why": "truncation (clears the low 16 bits) instead of round to nearest even",
        "source": """
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    return (u & np.uint32(0xFFFF0000)).view(np.float32)
""",
    },
    {
        "id": "ties-away-from-zero",
        "function": "bf16_round",
        "name": "ties rounded away from zero, not to even",
        "explanation": "Your function rounds to the nearest bfloat16 but sends every exact tie away from zero. That rule is biased: ties always go up in magnitude, and the errors add up instead of cancelling. Revisit ties to even, where the last kept bit decides the direction of a tie.",
        "section": "4. Round to nearest, ties to even",
        "why": "ties rounded away from zero (adds 0x8000), NaN handled",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    r = ((u + np.uint32(0x8000)) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), np.float32(np.nan), r).astype(np.float32)
""",
    },
    {
        "id": "nan-not-handled",
        "function": "bf16_round",
        "name": "NaNs are rounded like numbers and can become inf",
        "explanation": "Your function rounds NaNs with the same integer trick as numbers, so a NaN whose payload sits only in the low 16 bits turns into infinity, and a NaN near the top of the bit range can even carry into the sign bit. A NaN must stay a NaN whatever its payload. Revisit the exercise's warning about NaN payloads and treat NaNs separately.",
        "section": "Exercise 2: `bf16_round` (4 points)",
        "why": "RNE without NaN handling: low-payload NaNs become inf",
        "source": """
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    return ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
""",
    },
    {
        "id": "nan-checked-after-rounding",
        "function": "bf16_round",
        "name": "NaN detected after rounding, too late",
        "explanation": "Your function looks for NaNs in the rounded result rather than in the input, but by then a NaN whose payload sat only in the low 16 bits has already become infinity (or a zero, for a NaN near the top of the bit range). A NaN must stay a NaN whatever its payload. Revisit the exercise's warning about NaN payloads: decide what is a NaN before rounding.",
        "section": "Exercise 2: `bf16_round` (4 points)",
        "why": "NaN detected on the rounded result, not the input (low-payload NaNs already became inf)",
        "source": """
def bf16_round(x):
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (u >> 16) & 1
    r = (((u + 0x7FFF + lsb) & 0xFFFF0000) % 2**32).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(r), np.float32(np.nan), r).astype(np.float32)
""",
    },
    {
        "id": "tie-bit-15",
        "function": "bf16_round",
        "name": "breaks ties with the first dropped bit, not the last kept",
        "explanation": "Your tie-breaking reads the highest dropped bit instead of the lowest kept bit, so every exact tie rounds up in magnitude, as in rounding ties away from zero. Ties to even looks at the bit that stays: a tie goes to the neighbour whose last kept bit is 0. Revisit which bit makes a result even.",
        "section": "4. Round to nearest, ties to even",
        "why": "tie-breaking reads bit 15 (the round bit) instead of bit 16 (the last kept bit)",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    bit = (u >> np.uint32(15)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + bit) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), x, r).astype(np.float32)
""",
    },
    {
        "id": "flushes-subnormals",
        "function": "bf16_round",
        "name": "flushes subnormals to zero",
        "explanation": "Your function turns every subnormal input into a signed zero. Some accelerators flush subnormals, but the contract asks for the host conversion, where subnormals are numbers like any other and round to the nearest bfloat16. Revisit what subnormals are and where they get flushed.",
        "section": "3. Range: float16 overflows where bfloat16 does not",
        "why": "flushes subnormals to zero (what TPU hardware does, not the contract)",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    u = np.where((u & np.uint32(0x7F800000)) == 0, u & np.uint32(0x80000000), u).astype(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(x), x, r).astype(np.float32)
""",
    },
    {
        "id": "saturates-overflow",
        "function": "bf16_round",
        "name": "overflow saturates to the largest bfloat16, not inf",
        "explanation": "Your function clamps values that round past the largest bfloat16 to that largest finite value instead of letting them become infinity. Round to nearest overflows to infinity; saturation is a different conversion mode that some fp8 hardware offers. Revisit how overflow behaves in each format and conversion.",
        "section": "3. Range: float16 overflows where bfloat16 does not",
        "why": "saturates overflow to the largest bfloat16 instead of inf",
        "source": """
def bf16_round(x):
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
    big = np.float32(3.3895313892515355e38)
    r = np.where(np.isinf(r) & np.isfinite(x), np.copysign(big, x), r)
    return np.where(np.isnan(x), x, r).astype(np.float32)
""",
    },
    {
        "id": "modifies-input",
        "function": "bf16_round",
        "name": "rounds the caller's array in place",
        "explanation": "Your function writes the rounded bits back into the array it was given, so the caller's values change. A view of the bits shares memory with the original array, and the contract asks you to leave the input unchanged. Revisit the contract: work on a new array.",
        "section": "Exercise 2: `bf16_round` (4 points)",
        "why": "rounds in place: modifies the caller's array",
        "source": """
def bf16_round(x):
    u = x.view(np.uint32)
    nan = np.isnan(x)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    u[~nan] = (u[~nan] + np.uint32(0x7FFF) + lsb[~nan]) & np.uint32(0xFFFF0000)
    return x
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "float64-accumulator",
        "function": "sequential_sum",
        "name": "sums in float64 and rounds once at the end",
        "explanation": "Your running sum is kept in float64 and rounded to the target format only once, at the end. That is a wide accumulator, not the one the exercise emulates: the point is to round after every addition, which is what makes a long bfloat16 sum stall. Revisit the stall of 4096 times 0.01 in bfloat16.",
        "section": "5. The stall: 4096 × 0.01 in bfloat16 is 4.0",
        "why": "accumulates in float64 and rounds once at the end",
        "source": """
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype).astype(np.float64)
    total = 0.0
    for item in v:
        total += item
    return float(np.float64(total).astype(dtype))
""",
    },
    {
        "id": "float32-accumulator",
        "function": "sequential_sum",
        "name": "sums in float32 and rounds once at the end",
        "explanation": "Your running sum is kept in float32 and rounded to the target format only once, at the end. That is a float32 accumulator (what a matmul unit with a wide accumulator does), not the narrow accumulator the exercise emulates, which rounds after every addition and stalls. Revisit the stall of 4096 times 0.01 in bfloat16.",
        "section": "5. The stall: 4096 × 0.01 in bfloat16 is 4.0",
        "why": "accumulates in float32 and rounds once at the end (what the MXU does)",
        "source": """
def sequential_sum(values, dtype):
    v = np.asarray(values).astype(dtype).astype(np.float32)
    total = np.float32(0)
    for item in v:
        total = np.float32(total + item)
    return float(np.asarray(total).astype(dtype))
""",
    },
    {
        "id": "right-to-left",
        "function": "sequential_sum",
        "name": "sums right to left",
        "explanation": "Your function adds the values from last to first. Floating-point addition is not associative, so once every partial sum is rounded the order changes the result. Revisit the contract: left to right, from 0.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "sums right to left",
        "source": """
def sequential_sum(values, dtype):
    scalar = np.dtype(dtype).type
    total = scalar(0)
    for item in np.asarray(values).astype(dtype)[::-1]:
        total = scalar(total + item)
    return float(total)
""",
    },
    {
        "id": "no-convert-first",
        "function": "sequential_sum",
        "name": "values not converted to the format before summing",
        "explanation": "Your function adds the original values and rounds only the running sum, so each value enters the sum with more precision than the format can hold. The emulated accumulator adds values that are already in that format. Revisit the first step of the contract: convert the values first.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "does not convert the values first (rounds only the running sum)",
        "source": """
def sequential_sum(values, dtype):
    scalar = np.dtype(dtype).type
    total = 0.0
    for item in np.asarray(values, dtype=np.float64):
        total = float(scalar(total + item))
    return float(total)
""",
    },
    {
        "id": "np-sum",
        "function": "sequential_sum",
        "name": "uses NumPy's built-in sum (not sequential for float16 and float32)",
        "explanation": "Your function lets NumPy's sum add the values: for float32 NumPy sums pairwise in blocks, and for float16 it adds in float32 and rounds once (4096 copies of 0.01 give 40.97, where the sequential float16 sum stalls at 32.0; only for bfloat16 does ml_dtypes' sum round after each addition, left to right). That is often more accurate, but it is not the sum rounded after every addition that the exercise asks for. Revisit the contract and compare it with pairwise summation.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "np.sum in dtype (pairwise for float32, float32 partials for float16; sequential for bfloat16)",
        "source": """
def sequential_sum(values, dtype):
    return float(np.sum(np.asarray(values).astype(dtype)))
""",
    },
    {
        "id": "returns-numpy-scalar",
        "function": "sequential_sum",
        "name": "returns a NumPy scalar, not a Python float",
        "explanation": "Your function returns the sum as a NumPy scalar of the target format instead of a Python float. Its value is right, but the contract fixes the return type. Revisit the contract's return value.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "returns a NumPy scalar of dtype, not a Python float",
        "source": """
def sequential_sum(values, dtype):
    scalar = np.dtype(dtype).type
    total = scalar(0)
    for item in np.asarray(values).astype(dtype):
        total = scalar(total + item)
    return total
""",
    },
    # ---------------------------------------------------------- pairwise_sum
    {
        "id": "split-ceil-half",
        "function": "pairwise_sum",
        "name": "splits an odd count with the larger half first",
        "explanation": "For an odd number of values your function gives the extra value to the first half instead of the second. Every split changes which partial sums are rounded, so the result can differ from the contract's tree. Revisit the contract: the split point is part of it.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "splits at (n + 1) // 2",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    v = np.asarray(values).astype(dtype)
    def rec(w):
        n = len(w)
        if n == 0:
            return scalar(0)
        if n == 1:
            return w[0]
        return scalar(rec(w[: (n + 1) // 2]) + rec(w[(n + 1) // 2:]))
    return float(rec(v))
""",
    },
    {
        "id": "bottom-up-pairs",
        "function": "pairwise_sum",
        "name": "pairs neighbours bottom-up instead of halving",
        "explanation": "Your function adds neighbouring pairs level by level, which builds a different tree than splitting the values into halves unless their count is a power of two. With rounding after every addition a different tree gives different results. Revisit the contract's recursive definition.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "bottom-up pairing of neighbours (a different tree unless n is a power of 2)",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    level = list(np.asarray(values).astype(dtype))
    if not level:
        return 0.0
    while len(level) > 1:
        nxt = [scalar(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return float(level[0])
""",
    },
    {
        "id": "float64-recursion",
        "function": "pairwise_sum",
        "name": "sums in float64 and rounds once at the end",
        "explanation": "Your recursion adds in float64 and rounds to the target format only once, at the end. The exercise emulates a sum whose partial sums are all held in that format, so each addition must be rounded. Revisit the contract: every pairwise addition is rounded to the format.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "recursion in float64, rounded to dtype only at the end",
        "source": """
def pairwise_sum(values, dtype):
    v = np.asarray(values).astype(dtype).astype(np.float64)
    def rec(w):
        n = len(w)
        if n == 0:
            return 0.0
        if n == 1:
            return float(w[0])
        return rec(w[: n // 2]) + rec(w[n // 2:])
    return float(np.float64(rec(v)).astype(dtype))
""",
    },
    {
        "id": "no-convert-first",
        "function": "pairwise_sum",
        "name": "values not converted to the format before summing",
        "explanation": "Your function sums the original values and rounds only the partial sums, so single values keep more precision than the format can hold. The contract converts every value to the format first. Revisit the first step of the contract.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "does not convert the values first (only sums are rounded)",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    v = np.asarray(values, dtype=np.float64)
    def rec(w):
        n = len(w)
        if n == 0:
            return 0.0
        if n == 1:
            return float(w[0])
        return float(scalar(rec(w[: n // 2]) + rec(w[n // 2:])))
    return float(rec(v))
""",
    },
    {
        "id": "single-value-unconverted",
        "function": "pairwise_sum",
        "name": "a single value is returned without conversion",
        "explanation": "Given exactly one value, your function returns it as it came instead of converted to the format. The one-value case must be rounded like every other input. Revisit the contract: convert first, then the result for one value is that converted value.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "a single value is returned unconverted",
        "source": """
def pairwise_sum(values, dtype):
    scalar = np.dtype(dtype).type
    if len(values) == 1:
        return float(values[0])
    v = np.asarray(values).astype(dtype)
    def rec(w):
        n = len(w)
        if n == 0:
            return scalar(0)
        if n == 1:
            return w[0]
        return scalar(rec(w[: n // 2]) + rec(w[n // 2:]))
    return float(rec(v))
""",
    },
    # ------------------------------------------------------------ bf16_round
    {
        "id": "scalar-for-0d",
        "function": "bf16_round",
        "name": "returns a NumPy scalar for a 0-d input",
        "explanation": "For a 0-d input your function returns a NumPy scalar, not a 0-d float32 array. NumPy's elementwise operations return scalars when given 0-d arrays, so the result loses its array type. Revisit the contract: an ndarray of the same shape for any shape, including 0-d.",
        "section": "Exercise 2: `bf16_round` (4 points)",
        "why": "returns a NumPy scalar, not an ndarray, for a 0-d input (ufuncs on 0-d arrays return scalars)",
        "source": """
def bf16_round(x):
    u = x.view(np.uint32)
    nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    u = np.where(nan, (u & np.uint32(0xFFFF0000)) | np.uint32(0x00400000), u).astype(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    out = (u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)
    return out.view(np.float32)
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "double-rounding-via-float32",
        "function": "sequential_sum",
        "name": "values converted through float32 (rounded twice)",
        "explanation": "Your function converts the values to float32 on the way to the target format, so each is rounded twice. Two roundings can differ from one: a value just above a tie in bfloat16 can become an exact tie in float32 and then round the other way. Revisit the contract's first step and its example of double rounding.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "converts the values via float32 (double rounding of float64 inputs)",
        "source": """
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    s = t(0)
    for v in np.asarray(values, dtype=np.float32).astype(np.dtype(dtype)):
        s = t(s + v)
    return float(s)
""",
    },
    {
        "id": "starts-at-first-value",
        "function": "sequential_sum",
        "name": "running sum starts at the first value, not at 0",
        "explanation": "Your running sum starts from the first value instead of 0. This differs when the values are negative zeros: 0 plus negative zero is positive zero in round to nearest, so the sum of negative zeros is positive zero. Revisit the contract: the running sum starts at 0.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "starts the running sum at v[0] (empty input guarded): [-0.0] or [-0.0, -0.0] give -0.0, but 0 + -0 = +0",
        "source": """
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    v = np.asarray(values, dtype=np.dtype(dtype)).ravel()
    if v.size == 0:
        return 0.0
    s = v[0]
    for x in v[1:]:
        s = t(s + x)
    return float(s)
""",
    },
    # ---------------------------------------------------------- pairwise_sum
    {
        "id": "double-rounding-via-float32",
        "function": "pairwise_sum",
        "name": "values converted through float32 (rounded twice)",
        "explanation": "Your function converts the values to a float32 JAX array and then to the target format, so each is rounded twice. Two roundings can differ from one: a value just above a tie in bfloat16 can become an exact tie in float32 and then round the other way. Revisit the double-rounding warning of the sequential sum exercise.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "converts through jnp.array(values) (float32 by default) and then to dtype: double rounding of the inputs",
        "source": """
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(jnp.array(values, dtype=jnp.float32)).astype(dt) if len(values) else np.zeros(0, dt)

    def rec(a):
        n = len(a)
        if n == 0:
            return dt.type(0)
        if n == 1:
            return a[0]
        return dt.type(rec(a[:n // 2]) + rec(a[n // 2:]))

    return float(rec(v))
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "modifies-input-array",
        "function": "sequential_sum",
        "name": "overwrites the caller's array with rounded values",
        "explanation": "Your function writes the converted values back into the array it was given when that array is float64, so the caller's data changes. Converting must make a new array and leave the input as it was. Revisit the contract's third step.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "converts in place: a float64 ndarray argument is overwritten with its dtype-rounded values",
        "source": """
def sequential_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=np.float64)
    v[...] = v.astype(dt)
    s = dt.type(0)
    for x in v:
        s = dt.type(s + dt.type(x))
    return float(s)
""",
    },
    # ---------------------------------------------------------- pairwise_sum
    {
        "id": "modifies-input-array",
        "function": "pairwise_sum",
        "name": "overwrites the caller's array with rounded values",
        "explanation": "Your function writes the converted values back into the array it was given when that array is float64, so the caller's data changes. Converting must make a new array and leave the input as it was. Revisit the contract: convert into a new array.",
        "section": "Exercise 4: `pairwise_sum` (3 points)",
        "why": "converts in place: a float64 ndarray argument is overwritten with its dtype-rounded values",
        "source": """
def pairwise_sum(values, dtype):
    dt = np.dtype(dtype)
    v = np.asarray(values, dtype=np.float64)
    v[...] = v.astype(dt)
    def rec(lo, hi):
        if hi - lo == 0:
            return dt.type(0)
        if hi - lo == 1:
            return dt.type(v[lo])
        mid = lo + (hi - lo) // 2
        return dt.type(rec(lo, mid) + rec(mid, hi))
    return float(rec(0, len(v)))
""",
    },
    # -------------------------------------------------------- sequential_sum
    {
        "id": "modifies-input-list",
        "function": "sequential_sum",
        "name": "overwrites the caller's list with rounded values",
        "explanation": "Your function stores the converted values back into the list it was given, so the caller's data changes. Converting must make a new copy and leave the input as it was. Revisit the contract's third step.",
        "section": "Exercise 3: `sequential_sum` (3 points)",
        "why": "converts a list argument in place (values[i] = float(dtype(values[i]))): the caller's list is rounded",
        "source": """
def sequential_sum(values, dtype):
    t = np.dtype(dtype).type
    for i in range(len(values)):
        values[i] = float(t(values[i]))
    s = t(0)
    for x in values:
        s = t(s + t(x))
    return float(s)
""",
    },
    # ------------------- format_table, values kept as finfo's NumPy scalars
]
