"""A second descriptive-query set for `bench meaning`, written before any result was looked at
and never tuned on: ideas the first set (`bench.meaning_queries`) does not ask about, judged by
rules of the same form. Its figures are reported once, beside the first set's."""

from __future__ import annotations

from bench.meaning_queries import Described

OCR = r"\b(OCR|optical character recognition|text recognition|handwrit\w*|scene text)"
SUMMARY = r"\b(summari[sz]\w*)"
CAPTION = r"\b(caption\w*)"
ANOMALY = r"\b(anomal\w*|outlier\w*|novelty detection|out-of-distribution|OOD)\b"
FORGET = r"\b(unlearn\w*|catastrophic forgetting|continual learning|lifelong learning)"
SATELLITE = r"\b(satellite|remote sensing|aerial|earth observation)"
DRUG = r"\b(drug\w*|molecul\w*|protein\w*)"
FACE = r"\b(face recognition|facial recognition|face verification|face identification)"
POSE = r"\b(pose estimation|human pose|skeleton\w*|keypoint\w*)"
LEGAL = r"\b(legal|law\w*|court\w*|judicial)\b"
CODE_BUGS = r"\b(bug\w*|vulnerab\w*|program repair|fault\w*|defect\w*)"
MISINFO = r"\b(misinformation|fake news|fact-check\w*|disinformation|rumou?r\w*)"
TRAFFIC = r"\b(traffic)"
FINANCE = r"\b(financ\w*|stock\w*|trading|portfolio\w*|market\w*)"
QUESTIONS = r"\b(question answering|QA)\b"

UNSEEN: tuple[Described, ...] = (
    Described("把图片里的文字读出来", "zh", OCR),
    Described("把一篇长文章压缩成几句话", "zh", SUMMARY),
    Described("给一张图片写一句描述", "zh", CAPTION),
    Described("发现数据里不正常的样本", "zh", ANOMALY),
    Described("让模型忘掉学过的某些内容", "zh", FORGET),
    Described("分析卫星拍的地球照片", "zh", SATELLITE),
    Described("用计算机设计新药", "zh", DRUG),
    Described("通过脸认出是谁", "zh", FACE),
    Described("估计人体各个关节的位置", "zh", POSE),
    Described("用人工智能处理法律案件", "zh", LEGAL),
    Described("自动找出代码里的错误", "zh", CODE_BUGS),
    Described("识别网上的假新闻", "zh", MISINFO),
    Described("reading the words written in a picture", "en", OCR),
    Described("turning a long article into a few sentences", "en", SUMMARY),
    Described("writing a sentence that describes an image", "en", CAPTION),
    Described("spotting data points that look unusual", "en", ANOMALY),
    Described("making a trained model forget some of what it learned", "en", FORGET),
    Described("pictures of the earth taken from space", "en", SATELLITE),
    Described("finding new medicines with computers", "en", DRUG),
    Described("knowing who someone is from their face", "en", FACE),
    Described("finding where a person's arms and legs are in an image", "en", POSE),
    Described("computers helping judges and lawyers", "en", LEGAL),
    Described("finding mistakes in programs automatically", "en", CODE_BUGS),
    Described("catching false stories spread online", "en", MISINFO),
    Described("predicting how busy the roads will be", "en", TRAFFIC),
    Described("guessing where share prices go next", "en", FINANCE),
)
"""12 Chinese and 14 English descriptions."""
