"""Descriptive queries for `bench meaning`: ideas described in plain words, Chinese or English,
that name no field term outright, each with the rule that judges a paper relevant (a regular
expression over its title and abstract, optionally an arXiv category) — stated here, never
read by the search."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from domain.paper import Paper


@dataclass(frozen=True)
class Described:
    """A query, its language and its relevance rule."""

    text: str
    lang: str
    rule: str
    category: str = ""

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """The rule, case-insensitive."""
        return re.compile(self.rule, re.IGNORECASE)

    def relevant(self, paper: Paper) -> bool:
        """Whether the paper is about the query's idea."""
        if self.category and self.category not in paper.links.categories:
            return False
        return bool(self.pattern.search(f"{paper.title_en}\n{paper.summary_en}"))


COMPRESSION = r"\b(prun\w*|quantiz\w*|distill\w*|model compression|low-bit|sparsif\w*)"
GRASP = r"\b(grasp\w*|pick-and-place|manipulat\w*)"
FAKE_IMAGES = (r"(ai-generated|synthetic image|generated image|deepfake|fake image|"
               r"image forensic|forgery)")
SPEECH = r"\b(speech recognition|ASR|spoken|speech)\b"
TRANSLATE = r"\b(machine translation|translat\w+)\b"
HALLUCINATION = r"\bhallucinat\w*"
DRIVING = r"\b(autonomous driving|self-driving|driving|vehicle\w*)\b"
MEDICAL = r"\b(medical imag\w*|radiolog\w*|CT scan\w*|MRI|X-ray|patholog\w*|lesion\w*)"
JAILBREAK = r"\b(jailbreak\w*|red[- ]teaming|adversarial prompt\w*|harmful prompt\w*)"
RETRIEVAL_AUG = r"\b(retrieval-augmented|RAG)\b"
THREE_D = r"\b(3D reconstruction|gaussian splatting|NeRF|radiance field\w*|novel view synthesis)"
VIDEO_GEN = r"\b(video generation|video diffusion|text-to-video|video synthesis)"
MATH = r"\b(mathematical reasoning|math word problem\w*|theorem prov\w*|math\w* reasoning)"
CODE = r"\b(code generation|program synthesis|software engineering|coding)\b"
AGENTS = r"\b(multi-agent|multiagent)\b"
RECSYS = r"\b(recommend\w*)"
FEDERATED = r"\bfederated\b"
PRIVACY = r"\b(privacy|differential privacy|membership inference)"
MUSIC = r"\b(music\w*)"
WEATHER = r"\b(weather|climate|precipitation|forecast\w*)"
WATERMARK = r"\bwatermark\w*"
DEPTH = r"\b(depth estimation|monocular depth)"
TRACKING = r"\b(object tracking|multi-object tracking|tracking)\b"
SIGN = r"\b(sign language)"
EMOTION = r"\b(emotion\w*|sentiment|affective)"
LONG_CONTEXT = r"\b(long-context|long context|context length|context window)"
FAIRNESS = r"\b(bias\w*|fairness|stereotyp\w*)"
TABLES = r"\b(table\w*|tabular|spreadsheet\w*)"
SURGERY = r"\b(surg\w+)"
EDUCATION = r"\b(education\w*|student\w*|teaching|tutor\w*)"

QUERIES: tuple[Described, ...] = (
    Described("如何让模型更小更快", "zh", COMPRESSION),
    Described("让机器人学会抓取物体", "zh", GRASP),
    Described("分辨真实照片和电脑生成的图片", "zh", FAKE_IMAGES),
    Described("把人说的话转成文字", "zh", SPEECH),
    Described("把一种语言的句子自动翻成另一种语言", "zh", TRANSLATE),
    Described("大模型一本正经地胡说八道", "zh", HALLUCINATION),
    Described("汽车自己在路上开", "zh", DRIVING),
    Described("用人工智能看医院的片子", "zh", MEDICAL),
    Described("诱导聊天机器人说出有害内容", "zh", JAILBREAK),
    Described("先查资料再回答问题的语言模型", "zh", RETRIEVAL_AUG),
    Described("从几张照片重建三维场景", "zh", THREE_D),
    Described("根据文字描述生成视频", "zh", VIDEO_GEN),
    Described("让模型解数学题", "zh", MATH),
    Described("让电脑自己写程序", "zh", CODE),
    Described("多个智能体互相合作", "zh", AGENTS),
    Described("给用户推荐他们可能喜欢的东西", "zh", RECSYS),
    Described("数据不出本地的联合训练", "zh", FEDERATED),
    Described("保护训练数据中的个人隐私", "zh", PRIVACY),
    Described("用计算机创作音乐", "zh", MUSIC),
    Described("预测明天会不会下雨", "zh", WEATHER),
    Described("在生成的内容里藏入看不见的标记", "zh", WATERMARK),
    Described("从一张图片估计物体离相机多远", "zh", DEPTH),
    Described("识别聋人的手势语言", "zh", SIGN),
    Described("判断一段文字里的情绪", "zh", EMOTION),
    Described("让模型读很长的文档", "zh", LONG_CONTEXT),
    Described("telling real photos from ones made by a computer", "en", FAKE_IMAGES),
    Described("making neural networks smaller so they run on phones", "en", COMPRESSION),
    Described("teaching robot arms to pick things up", "en", GRASP),
    Described("turning what people say into written text", "en", SPEECH),
    Described("chatbots confidently making up facts", "en", HALLUCINATION),
    Described("cars that drive themselves", "en", DRIVING),
    Described("reading hospital scans with computers", "en", MEDICAL),
    Described("tricking a chatbot into saying forbidden things", "en", JAILBREAK),
    Described("looking things up before answering a question", "en", RETRIEVAL_AUG),
    Described("building a 3D scene from a handful of pictures", "en", THREE_D),
    Described("making short movies from a sentence", "en", VIDEO_GEN),
    Described("solving school math problems step by step", "en", MATH),
    Described("computers writing software on their own", "en", CODE),
    Described("several AI helpers working together as a team", "en", AGENTS),
    Described("suggesting products a shopper might like", "en", RECSYS),
    Described("training on phones without sending data to a server", "en", FEDERATED),
    Described("keeping personal data safe when training models", "en", PRIVACY),
    Described("how far away things are in a single photo", "en", DEPTH),
    Described("following moving objects through a video", "en", TRACKING),
    Described("unfair treatment of groups of people by models", "en", FAIRNESS),
    Described("answering questions about spreadsheets", "en", TABLES),
    Described("helping doctors during operations", "en", SURGERY),
    Described("helping students learn in class", "en", EDUCATION),
)
"""25 Chinese and 23 English descriptions."""
