"""Search across languages: Chinese queries over English-only papers, English queries over
Chinese-only text, paperclub beside today's lexical search (the same `SearchService` with
cross-language spellings off) in the same run.

Corpora:
- **zh → en**: the real arXiv sample (`../shared/realworld/arxiv-metadata/arxiv-sample.jsonl`,
  11,648 papers, English only), imported with `load_catalog`; the queries are Chinese, in
  Simplified characters and in Traditional as Taiwan writes them (OpenCC `s2twp`, which also
  swaps Taiwan's words: 資料 for 数据).
- **en → zh**: the bundled listing (30 papers) with its English hidden: the Chinese title is
  the paper's only title, the Chinese AI summary its only text (authors kept).

Relevance, stated here and judged without the glossary: each query carries the English term it
means and its close variants (plural, hyphen or space, abbreviation) and, for the listing, the
Chinese wording a reader would look for. A paper is relevant when one of the English variants
is in its title or abstract (zh → en), or in its hidden English title, or the Chinese wording in
its Chinese title or summary (en → zh). With hundreds of relevant papers for a query, plain
recall@20 could never pass 20 / hundreds, and with one relevant listing paper plain
precision@5 never 0.2; so the figures are precision@5 = relevant among the first 5 /
min(5, relevant papers) and recall@20 = relevant among the first 20 / min(20, relevant
papers), averaged over the queries with at least one relevant paper.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from opencc import OpenCC

from bench.catalog_queries import known_queries, real_papers, synthetic_queries
from bench.report import fmt_ms, p99, progress, publish
from bot.features.catalog.loader import load_catalog
from bot.features.papers.query import parse_query
from bot.features.papers.search import SearchService
from bot.settings import bundled_catalog
from domain.paper import Paper
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tools.realworld import ARXIV_SAMPLE
from tools.synthetic_catalog import write_listing

TAG = "crosslingual"
OUT = Path(__file__).parent / "out" / "crosslingual.md"
SAMPLE = ARXIV_SAMPLE
TO_TAIWAN = OpenCC("s2twp")

# Chinese query <TAB> English term | variants (judged in title or abstract)
ZH_QUERIES = """
扩散模型	diffusion model|diffusion-based
知识蒸馏	knowledge distillation|distilling knowledge
目标检测	object detection|object detector
语义分割	semantic segmentation
实例分割	instance segmentation
大语言模型	large language model|LLM
视觉语言模型	vision-language model|vision language model|VLM
多模态大模型	multimodal large language model|MLLM|multimodal LLM
强化学习	reinforcement learning
图像生成	image generation
视频生成	video generation
三维重建	3D reconstruction
高斯泼溅	Gaussian splatting|3DGS
点云	point cloud
自动驾驶	autonomous driving|self-driving
对比学习	contrastive learning
自监督学习	self-supervised
少样本	few-shot
零样本	zero-shot
领域自适应	domain adaptation
联邦学习	federated learning
持续学习	continual learning|lifelong learning
对抗攻击	adversarial attack
越狱攻击	jailbreak
幻觉	hallucination
思维链	chain-of-thought|CoT
检索增强生成	retrieval-augmented generation|RAG
上下文学习	in-context learning
指令微调	instruction tuning|instruction-tuned
机器翻译	machine translation
语音识别	speech recognition|ASR
问答	question answering
情感分析	sentiment analysis
命名实体识别	named entity recognition|NER
文生图	text-to-image
超分辨率	super-resolution
深度估计	depth estimation
姿态估计	pose estimation
异常检测	anomaly detection
遥感	remote sensing
视觉问答	visual question answering|VQA
混合专家	mixture of experts|mixture-of-experts|MoE
知识图谱	knowledge graph
图神经网络	graph neural network|GNN
奖励模型	reward model
直接偏好优化	direct preference optimization|DPO
水印	watermark
差分隐私	differential privacy
图像描述	image captioning|image caption
开放词汇	open-vocabulary
神经辐射场	neural radiance field|NeRF
新视角合成	novel view synthesis
低秩适应	low-rank adaptation|LoRA
量化	quantization|quantized
推测解码	speculative decoding
长上下文	long context|long-context
世界模型	world model
轨迹预测	trajectory prediction
动作识别	action recognition
图像编辑	image editing
风格迁移	style transfer
数据增强	data augmentation
域泛化	domain generalization
医学图像分割	medical image segmentation
机器遗忘	machine unlearning|unlearning
"""
TRADITIONAL = ("扩散模型", "知识蒸馏", "目标检测", "语义分割", "大语言模型", "视觉语言模型",
               "强化学习", "图像生成", "视频生成", "三维重建", "点云", "自动驾驶", "对比学习",
               "零样本", "联邦学习", "幻觉", "思维链", "检索增强生成", "机器翻译", "语音识别",
               "异常检测", "遥感", "知识图谱", "图神经网络", "数据增强", "量化", "水印",
               "世界模型", "姿态估计", "动作识别")
"""Queries asked again in Traditional characters, as Taiwan writes them."""

# English query <TAB> English variants (hidden English title) <TAB> Chinese wording
EN_QUERIES = """
large language model	large language model|LLM	大语言模型
LLM	LLM|large language model	大语言模型
LLMs	LLM|large language model	大语言模型
language models	language model|LLM	语言模型
reinforcement learning	reinforcement learning	强化学习
knowledge distillation	knowledge distillation	知识蒸馏
distillation	distillation	蒸馏
object detection	object detection	目标检测
ridge regression	ridge regression	岭回归
grokking	grokking	grokking
causal discovery	causal discovery	因果发现
foundation models	foundation model	基础模型
foundation model	foundation model	基础模型
neural networks	neural network	神经网络
neural network	neural network	神经网络
hallucination	hallucination	幻觉
hallucinations	hallucination	幻觉
long context	long-context|long context	长上下文
long-context	long-context|long context	长上下文
in-context learning	in-context learning	上下文学习
model merging	model merging|merging	模型合并
optimal transport	optimal transport	最优输运
synthetic data	synthetic data	合成数据
scaling laws	scaling law	扩展定律
scaling law	scaling law	扩展定律
fine-tuning	fine-tuning	微调
finetuning	fine-tuning	微调
evaluation	evaluation	评估
benchmarks	benchmark	基准
reasoning	reasoning	推理
agents	agent	智能体
LLM agents	agent	智能体
retrieval	retrieval	检索
alignment	align	对齐
low-rank	low-rank	低秩
pretraining	pretraining	预训练
pre-training	pretraining	预训练
deep learning	deep learning|DL-based	深度学习
artificial intelligence	AI	人工智能
classification	classification	分类
optimization	optimization	优化
reinforcement	reinforcement learning	强化学习
prompts	prompt	提示
uncertainty	uncertainty	不确定性
bias	bias	偏差
Bayesian	Bayesian	贝叶斯
entropy	entropy	熵
memorization	memorization	记忆
plasticity	plasticity	可塑性
tabular data	tabular	表格数据
data generation	data generation	数据生成
channel estimation	channel estimation	信道估计
differential equations	differential equation	微分方程
causal	causal	因果
hallucination in LLMs	hallucination	幻觉
LLM evaluation	LLM evaluation|evaluation	评估
reasoning models	reasoning model	推理模型
neuro-symbolic	neuro-symbolic	神经符号
model merging LLM	model merging	模型合并
whistleblower	whistleblower	举报人
"""


@dataclass(frozen=True, slots=True)
class Query:
    """A query, how it is judged, and which set it belongs to."""

    text: str
    kind: str
    variants: tuple[str, ...]
    chinese: str = ""

    def pattern(self) -> re.Pattern[str]:
        """The English variants as a case-insensitive word pattern: space or hyphen between
        words, an optional plural ending."""
        alternatives = [r"[\s-]*".join(map(re.escape, v.split())) for v in self.variants]
        return re.compile(r"\b(?:" + "|".join(alternatives) + r")(?:s|es)?\b", re.IGNORECASE)


def zh_queries() -> list[Query]:
    """The Chinese queries, Simplified then Traditional."""
    rows = [line.split("\t") for line in ZH_QUERIES.strip().splitlines()]
    simplified = [Query(zh, "Simplified", tuple(en.split("|"))) for zh, en in rows]
    by_text = {q.text: q for q in simplified}
    traditional = [Query(TO_TAIWAN.convert(text), "Traditional", by_text[text].variants)
                   for text in TRADITIONAL]
    return simplified + traditional


def en_queries() -> list[Query]:
    """The English queries over the Chinese-only listing."""
    rows = [line.split("\t") for line in EN_QUERIES.strip().splitlines()]
    return [Query(text, "English", tuple(en.split("|")), zh) for text, en, zh in rows]


def hidden_english(paper: Paper) -> Paper:
    """The listing paper with its English hidden."""
    return Paper(title_en=paper.title_zh, title_zh="", authors=paper.authors,
                 summary_zh=paper.summary_zh)


@dataclass
class Scores:
    """One system's figures over one query set."""

    precision: list[float]
    recall: list[float]
    times: list[float]
    no_relevant: int = 0

    def row(self, label: str, name: str) -> str:
        """One table row."""
        return (f"| {label} | {name} | {statistics.fmean(self.precision):.3f} | "
                f"{statistics.fmean(self.recall):.3f} | {fmt_ms(statistics.median(self.times))} "
                f"| {fmt_ms(p99(self.times))} |")


async def _score(search: SearchService, queries: list[Query],
                 relevant: dict[str, set[str]]) -> Scores:
    scores = Scores([], [], [])
    for query in queries:
        parsed = parse_query(query.text)
        await search.search(parsed, limit=20)  # warm
        started = time.perf_counter()
        outcome = await search.search(parsed, limit=20)
        scores.times.append((time.perf_counter() - started) * 1000)
        wanted = relevant[query.text]
        if not wanted:
            scores.no_relevant += 1
            continue
        ids = [hit.id for hit in outcome.hits]
        scores.precision.append(len(wanted & set(ids[:5])) / min(5, len(wanted)))
        scores.recall.append(len(wanted & set(ids[:20])) / min(20, len(wanted)))
    return scores


async def _papers(store: SqlitePaperStore) -> list[Paper]:
    return [paper async for paper in store.iter_papers()]


async def _bench(scratch: Path, sample: Path, size: int) -> str:
    lines = ["# Search across languages", ""]
    results: list[tuple[str, list[Query], Scores, Scores]] = []
    db = await Database.open(scratch / "arxiv.db")
    try:
        store = SqlitePaperStore(db)
        progress(TAG, f"importing {sample}")
        started = time.perf_counter()
        report = await load_catalog(store, sample)
        elapsed = time.perf_counter() - started
        papers = await _papers(store)
        lines.append(f"zh → en corpus: {len(papers):,} real arXiv papers (English only), "
                     f"imported at {report.counts.added / elapsed:,.0f} papers/s.")
        queries = zh_queries()
        relevant = {q.text: {p.id for p in papers if q.pattern().search(
            f"{p.title_en}\n{p.summary_en}")} for q in queries}
        for kind in ("Simplified", "Traditional"):
            chosen = [q for q in queries if q.kind == kind]
            progress(TAG, f"{len(chosen)} {kind} queries")
            ours = await _score(SearchService(store), chosen, relevant)
            today = await _score(SearchService(store, cross_language=False), chosen, relevant)
            results.append((f"{kind} Chinese → English-only arXiv", chosen, ours, today))
    finally:
        await db.close()
    db = await Database.open(scratch / "listing.db")
    try:
        store = SqlitePaperStore(db)
        originals = {hidden_english(p).id: p for p in await _listing(scratch)}
        await store.add_papers([hidden_english(p) for p in originals.values()])
        queries = en_queries()
        relevant = {q.text: {pid for pid, p in originals.items()
                             if q.pattern().search(p.title_en)
                             or q.chinese in p.title_zh + p.summary_zh} for q in queries}
        progress(TAG, f"{len(queries)} English queries")
        ours = await _score(SearchService(store), queries, relevant)
        today = await _score(SearchService(store, cross_language=False), queries, relevant)
        results.append(("English → Chinese-only listing (30 papers, English hidden)", queries,
                        ours, today))
    finally:
        await db.close()
    lines += ["", "| queries | system | precision@5 | recall@20 | p50 | p99 |",
              "| --- | --- | ---: | ---: | ---: | ---: |"]
    for name, _queries, ours, today in results:
        counted = len(ours.precision)
        label = f"{name}: {counted} judged"
        if ours.no_relevant:
            label += f" (+{ours.no_relevant} with no relevant paper)"
        lines.append(ours.row(label, "paperclub"))
        lines.append(today.row("", "today's lexical search"))
    zh_ours = [s for name, _, s, _ in results if "Chinese →" in name]
    precision = statistics.fmean([p for s in zh_ours for p in s.precision])
    lines += ["", f"Target precision@5 ≥ 0.8 for Chinese queries over English-only papers: "
                  f"{precision:.3f} — {'met' if precision >= 0.8 else 'NOT met'}.",
              "", "Latency is one warm `SearchService.search(limit=20)` per query, in ms."]
    if size:
        lines += await _same_language(scratch, size)
    return "\n".join(lines)


async def _same_language(scratch: Path, size: int) -> list[str]:
    """The catalog benchmark's 277 queries on a synthetic bilingual catalog of `size` papers,
    each timed through paperclub and today's lexical search back to back (a machine whose speed
    drifts moves both): p99, and hit@1 of the 207 with a known answer."""
    papers = real_papers()
    known = known_queries(papers)
    queries = known + synthetic_queries(10)
    progress(TAG, f"{size:,}: writing and loading a synthetic catalog")
    listing = write_listing(scratch / "synthetic.txt", size, real=papers)
    db = await Database.open(scratch / "synthetic.db")
    try:
        store = SqlitePaperStore(db)
        await load_catalog(store, listing)
        titles = {p.id: p.title_en for p in papers}
        systems = {"paperclub": SearchService(store),
                   "today's lexical search": SearchService(store, cross_language=False)}
        times: dict[str, list[float]] = {name: [] for name in systems}
        first: dict[str, int] = dict.fromkeys(systems, 0)
        crossed = 0
        for search in systems.values():
            await search.prepare()
            await search.built()
        for query in queries:
            parsed = parse_query(query.text)
            for name, search in systems.items():
                await search.search(parsed)  # warm
                started = time.perf_counter()
                outcome = await search.search(parsed)
                times[name].append((time.perf_counter() - started) * 1000)
                if query.expected and outcome.hits and \
                        titles.get(outcome.hits[0].id) == query.expected:
                    first[name] += 1
                crossed += bool(outcome.crossed) and name == "paperclub"
    finally:
        await db.close()
    lines = ["", f"Same-language queries: the catalog benchmark's {len(queries)} queries on a "
                 f"synthetic bilingual catalog of {size:,} papers ({crossed} of them got "
                 "cross-language hits after their own):", "",
             "| system | hit@1 | p50 | p99 |", "| --- | ---: | ---: | ---: |"]
    for name in systems:
        lines.append(f"| {name} | {first[name]}/{len(known)} | "
                     f"{fmt_ms(statistics.median(times[name]))} | {fmt_ms(p99(times[name]))} |")
    ratio = p99(times["paperclub"]) / p99(times["today's lexical search"])
    lines += ["", f"Search p99 at {size:,}: {ratio:.2f}× today's — "
                  f"{'within' if ratio <= 2 else 'NOT within'} 2×."]
    return lines


async def _listing(scratch: Path) -> list[Paper]:
    db = await Database.open(scratch / "bundled.db")
    try:
        store = SqlitePaperStore(db)
        await load_catalog(store, bundled_catalog())
        return await _papers(store)
    finally:
        await db.close()


def configure(parser: argparse.ArgumentParser) -> None:
    """Options."""
    parser.add_argument("--sample", type=Path, default=SAMPLE,
                        help="arXiv metadata JSON Lines (default: the real sample beside the "
                             "repository)")
    parser.add_argument("--size", type=int, default=100_000,
                        help="papers of the synthetic catalog for the same-language queries "
                             "(0: skip them)")
    parser.add_argument("--out", type=Path, default=OUT)


def run(args: argparse.Namespace) -> int:
    """Run both query sets on both systems and print the table."""
    sample = args.sample
    if not sample.exists():
        progress(TAG, f"no arXiv sample at {sample}")
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        publish(asyncio.run(_bench(Path(scratch), sample, args.size)), args.out, TAG)
    return 0
