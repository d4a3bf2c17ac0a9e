"""Strings: downloading a chart as an image (the sidebar's setting and the chart's button)."""

STRINGS: dict[str, dict[str, str]] = {
    "export.box": {"en": "Chart downloads: SVG or PNG", "zh": "图表下载：SVG 或 PNG"},
    "export.format": {"en": "Chart downloads", "zh": "图表下载格式"},
    "export.scale": {"en": "Image scale", "zh": "图片倍数"},
    "export.scale_n": {"en": "{n}×", "zh": "{n}×"},
    "export.help": {
        "en": "Hover over a chart (or tap it) and click the camera button in its top-right corner. The chart downloads "
        "exactly as shown (selection, outline, labels, language), named after what it shows. SVG keeps the text "
        "as text and names its font (Source Sans; Noto Sans CJK SC for Chinese), so the computer that opens it "
        "draws it with its own copy; PNG has the text drawn in, at the chosen scale (2× or more for slides).",
        "zh": "把鼠标移到图表上（或轻点图表），点击右上角的相机按钮：图表会按当前所见的样子下载（选择、描边、标签、语言），"
        "文件名说明图中内容。SVG 保留文字本身并注明字体（Source Sans；中文为 Noto Sans CJK SC），由打开它的电脑用自己的字体显示；"
        "PNG 则把文字画进像素，按所选倍数输出（做幻灯片建议 2× 或更高）。",
    },
    "export.button": {"en": "Download as {format}", "zh": "下载为 {format}"},
    "export.button_scaled": {"en": "Download as {format} ({scale}×)", "zh": "下载为 {format}（{scale}×）"},
    "export.preparing": {"en": "Preparing the image…", "zh": "正在生成图片……"},
    "export.done": {"en": "Image downloaded", "zh": "图片已下载"},
    "export.failed": {"en": "Sorry, the image could not be made.", "zh": "抱歉，图片生成失败。"},
}
