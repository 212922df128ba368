"""Synthetic catalogs shaped like the bundled ICML listing, for benchmarks and load tests.

Deterministic for a seed. English titles mix a fixed ML vocabulary with made-up words (so the
vocabulary grows with the catalog as real ones do); Chinese titles and summaries are drawn from
Chinese ML terms; venue notes follow the bundled catalog's phrasings.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

from bot.features.catalog.listing_writer import format_listing
from bot.features.catalog.venue import derive_venue
from domain.paper import Affiliation, Paper

EN_WORDS = (
    "learning neural network transformer attention diffusion model language large reasoning "
    "graph causal discovery reinforcement policy optimization gradient descent convex robust "
    "adversarial generalization bound sparse low-rank pretraining fine-tuning alignment agent "
    "uncertainty calibration bayesian inference variational kernel regression classification "
    "contrastive representation self-supervised federated privacy differential fairness "
    "interpretability mechanistic probing circuit scaling law benchmark evaluation memory "
    "retrieval augmented generation vision multimodal speech audio time series forecasting "
    "tabular molecule protein physics simulation control planning exploration reward offline "
    "online bandit sampling score matching flow equivariant symmetry manifold spectral "
    "stochastic distributed efficient quantization pruning distillation continual incremental "
    "detection segmentation tokenization decoding hallucination safety watermark"
).split()
ZH_TERMS = (
    "深度学习 神经网络 注意力 扩散模型 语言模型 推理 图神经网络 因果发现 强化学习 策略优化 "
    "梯度下降 鲁棒性 对抗样本 泛化 低秩 预训练 微调 对齐 智能体 不确定性 校准 贝叶斯推断 "
    "变分推断 核方法 回归 分类 对比学习 表示学习 自监督 联邦学习 差分隐私 公平性 可解释性 "
    "机制解释 缩放定律 基准测试 评估 检索增强生成 多模态 语音 时间序列 预测 分子 蛋白质 "
    "物理模拟 控制 规划 探索 奖励 离线 在线 采样 流匹配 等变 对称性 流形 谱方法 随机优化 "
    "分布式 高效 量化 剪枝 知识蒸馏 持续学习 增量学习 目标检测 分割 解码 幻觉 安全 水印 "
    "岭回归 稀疏"
).split()
ZH_GLUE = ("的", "中的", "用于", "基于", "通过", "面向", "与", "及其")
SURNAMES = (
    "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Smith "
    "Johnson Brown Garcia Miller Davis Martin Muller Rossi Dubois Kowalski Novak Tanaka "
    "Suzuki Kim Park Singh Patel Cohen Levi Silva Santos Ivanov Petrov"
).split()
GIVEN = (
    "Wei Jing Min Hao Yu Xin Lei Tao Anna Maria David Michael Sarah Paul Laura Daniel Elena "
    "Ivan Yuki Hiro Ji-woo Arjun Priya Noa Lucas Sofia Omar Leila"
).split()
INSTITUTIONS = (
    ("Tsinghua University", "清华大学"), ("Peking University", "北京大学"),
    ("Stanford University", "斯坦福大学"), ("MIT", "麻省理工学院"),
    ("University of Oxford", "牛津大学"), ("ETH Zurich", "苏黎世联邦理工学院"),
    ("Mila Quebec AI Institute", "Quebec AI 研究院"), ("Google DeepMind", "谷歌DeepMind"),
    ("Microsoft Research", "微软研究院"), ("Zhejiang University", "浙江大学"),
    ("KAIST", "韩国科学技术院"), ("University of Tokyo", "东京大学"),
)
COMMENTS = (
    "Accepted at ICML 2026", "Accepted by ICML 2026", "Published at ICML 2026 main conference",
    "{p} pages, {f} figures. ICML 2026 (Spotlight)", "ICML 2026 Spotlight",
    "Accepted as a poster at {ws} @ ICML 2026. {p} pages, {f} figures",
    "Accepted to the {wsname} Workshop at ICML 2026. {p} pages, {f} figures",
    "Accepted at the ICML 2026 Workshop on {wsname}", "Accepted to ICML 26",
    "{p} pages, {f} figures; Accepted at {ws}@ICML'26", "ICML 2026 (Oral)",
    "IEEE ICMLCN 2025, 26-29 May 2025 Barcelona, Spain",
)
WORKSHOPS = (("HiLD", "High-dimensional Learning Dynamics"), ("FMSD", "Foundation Models for "
             "Structured Data"), ("TAIGR", "Technical AI Governance Research"),
             ("AdaptFM", "Resource-Adaptive Foundation Model Inference"),
             ("MI", "Mechanistic Interpretability"))
_SYLLABLES = "ka lo mi ner tra vo xen qua ris dal pex zor fin gul tam bre cho sly".split()


def _made_up_word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


# Characters for made-up Chinese terms: with only the ~80 real terms above, each would sit in
# a fifth of all summaries, far denser than a real catalog's vocabulary.
_ZH_CHARS = "".join(dict.fromkeys("".join(ZH_TERMS) + (
    "数据模型方法网络学习训练优化结构特征空间信息表示任务目标性能实验结果理论分析框架算法设计"
    "问题系统能力效率稳定收敛误差损失函数参数梯度样本分布概率统计推理生成检测识别分割跟踪匹配"
    "检索排序推荐对话翻译摘要问答知识图谱关系实体事件时序动态静态局部全局层次多尺度跨域迁移适应"
    "鲁棒安全隐私公平解释因果干预反事实评估基准指标度量相似距离聚类降维压缩稀疏量化剪枝蒸馏加速"
)))
_VOCAB_RNG = random.Random(7)
_ZH_PSEUDO = tuple(dict.fromkeys(
    "".join(_VOCAB_RNG.choice(_ZH_CHARS) for _ in range(_VOCAB_RNG.randint(2, 4)))
    for _ in range(3000)
))


def _zh_term(rng: random.Random) -> str:
    """Half the time a real ML term, otherwise one of ~3,000 made-up ones."""
    return rng.choice(ZH_TERMS) if rng.random() < 0.5 else rng.choice(_ZH_PSEUDO)


def synthetic_paper(rng: random.Random, serial: int) -> Paper:
    """One plausible paper; `serial` keeps titles unique."""
    words = [rng.choice(EN_WORDS) for _ in range(rng.randint(4, 9))]
    words.insert(rng.randrange(len(words)), _made_up_word(rng))
    title_en = " ".join(w.capitalize() if i == 0 or rng.random() < 0.6 else w
                        for i, w in enumerate(words)) + f" {serial}"
    zh = [_zh_term(rng) for _ in range(rng.randint(2, 4))]
    title_zh = rng.choice(ZH_GLUE).join(zh)
    authors = tuple(f"{rng.choice(GIVEN)} {rng.choice(SURNAMES)}"
                    for _ in range(rng.randint(1, 6)))
    affiliations = tuple(Affiliation(*rng.choice(INSTITUTIONS)) for _ in range(rng.randint(0, 3)))
    summary = "本文" + "，".join(
        rng.choice(ZH_GLUE).join(_zh_term(rng) for _ in range(3)) for _ in range(6)) + "。"
    ws, wsname = rng.choice(WORKSHOPS)
    comments = rng.choice(COMMENTS).format(p=rng.randint(8, 40), f=rng.randint(2, 12),
                                           ws=ws, wsname=wsname)
    return Paper(title_en=title_en, title_zh=title_zh, authors=authors,
                 affiliations=affiliations, summary_zh=summary, comments=comments,
                 venue=derive_venue(comments, ""))


def synthetic_papers(count: int, seed: int = 2026, real: list[Paper] | None = None
                     ) -> Iterator[Paper]:
    """`count` papers; the `real` ones are spread evenly through the synthetic ones."""
    rng = random.Random(seed)
    real = list(real or [])
    every = max(1, count // (len(real) + 1)) if real else 0
    for serial in range(count):
        if real and serial % every == every - 1:
            yield real.pop(0)
        else:
            yield synthetic_paper(rng, serial)
    yield from real


def write_listing(path: Path, count: int, seed: int = 2026, real: list[Paper] | None = None
                  ) -> Path:
    """Write a synthetic listing file and return its path."""
    with path.open("w", encoding="utf-8") as handle:
        handle.writelines(format_listing(synthetic_papers(count, seed, real), "ICML"))
    return path
