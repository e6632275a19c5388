#!/usr/bin/env python3
"""Write the example content tree's XLIFF 1.2 translations.

Usage: make-example-translations.py [CONTENT_DIR]   (default: content/ at the repo root)

Reads msgc.yaml and messages/**/*.yaml, pairs every translatable string with the
translations in TRANSLATIONS below, and writes translations/<locale>.xliff for every
non-source locale, in the shape `msgc extract` writes. Each entry in TRANSLATIONS
records the English source it was translated from; if the YAML source has changed, or a
string is missing, extra, over its limit, not NFC, has stray white space or invisible
characters, or its numbers differ from the source, the script fails and writes nothing.

Needs PyYAML.
"""

import re
import sys
import unicodedata
from pathlib import Path

import yaml

# Apple's limits, in UTF-16 code units (msgc's default lengthMeasure).
LIMITS = {"header": 66, "body": 144, "alt": 150, "text": 66}
# msgc warns when a source string is above 80% of its limit: keep the sources below it.
SOURCE_HEADROOM = 0.8

Y = "com.example.parla.plus.yearly"
M = "com.example.parla.plus.monthly"
F = "com.example.parla.family.yearly"

NNBSP = "\u202f"  # French: before % ? : ! ;
NBSP = "\u00a0"   # German: between a number and %

# unit id -> {"source": English text it was translated from, locale: translation, ...}
TRANSLATIONS = {
    # --- messages/family.yaml ------------------------------------------------------
    f"{F}/stay-together/header": {
        "source": "Keep learning together",
        "de-DE": "Gemeinsam weiterlernen",
        "fr-FR": "Continuez à apprendre ensemble",
        "es-MX": "Sigan aprendiendo juntos",
    },
    f"{F}/stay-together/body": {
        "source": "Your family plan gives up to 6 people their own profile, progress and reminders, "
                  "all on one subscription.",
        "de-DE": "Mit deinem Familienabo haben bis zu 6 Personen ihr eigenes Profil, ihren Fortschritt "
                 "und ihre Erinnerungen – alles in einem Abo.",
        "fr-FR": "Avec l’abonnement Famille, jusqu’à 6 personnes ont chacune leur profil, leur "
                 "progression et leurs rappels, en un seul abonnement.",
        "es-MX": "Tu plan familiar les da a hasta 6 personas su propio perfil, progreso y "
                 "recordatorios, todo con una sola suscripción.",
    },
    f"{F}/stay-together/image.alt": {
        "source": "Three family members of different heights standing side by side",
        "de-DE": "Drei unterschiedlich große Familienmitglieder stehen nebeneinander",
        "fr-FR": "Trois membres d’une famille, de tailles différentes, côte à côte",
        "es-MX": "Tres integrantes de una familia, de distintas estaturas, uno junto al otro",
    },
    f"{F}/stay-together/bullets.1.text": {
        "source": "Up to 6 profiles, one subscription",
        "de-DE": "Bis zu 6 Profile in einem Abo",
        "fr-FR": "Jusqu’à 6 profils, un seul abonnement",
        "es-MX": "Hasta 6 perfiles, una sola suscripción",
    },
    f"{F}/stay-together/bullets.1.alt": {
        "source": "Three figures standing together",
        "de-DE": "Drei Figuren, die beieinanderstehen",
        "fr-FR": "Trois silhouettes côte à côte",
        "es-MX": "Tres figuras juntas",
    },
    f"{F}/stay-together/bullets.2.text": {
        "source": "Each learner keeps their own streak",
        "de-DE": "Alle behalten ihre eigene Lernserie",
        "fr-FR": "Chacun garde sa propre série",
        "es-MX": "Cada persona conserva su propia racha",
    },
    f"{F}/stay-together/bullets.2.alt": {
        "source": "Green check mark",
        "de-DE": "Grünes Häkchen",
        "fr-FR": "Coche verte",
        "es-MX": "Palomita verde",
    },
    f"{F}/switch-individual/header": {
        "source": "Learning on your own now?",
        "de-DE": "Lernst du jetzt allein weiter?",
        "fr-FR": f"Vous continuez en solo{NNBSP}?",
        "es-MX": "¿Ahora aprendes por tu cuenta?",
    },
    f"{F}/switch-individual/body": {
        "source": "Switch to an individual yearly plan and keep your own progress, streak and saved "
                  "words exactly as they are.",
        "de-DE": "Wechsle zu einem Einzel-Jahresabo und behalte deinen Fortschritt, deine Lernserie "
                 "und deine gespeicherten Wörter genau so, wie sie sind.",
        "fr-FR": "Passez à un abonnement annuel individuel et conservez votre progression, votre série "
                 "et vos mots enregistrés tels quels.",
        "es-MX": "Cámbiate a un plan anual individual y conserva tu progreso, tu racha y tus palabras "
                 "guardadas tal como están.",
    },

    # --- messages/plus/monthly.yaml ------------------------------------------------
    f"{M}/thanks/header": {
        "source": "Thanks for learning with us",
        "de-DE": "Danke, dass du mit uns lernst",
        "fr-FR": "Merci d’apprendre avec nous",
        "es-MX": "Gracias por aprender con nosotros",
        "pt-BR": "Obrigado por aprender com a gente",
        "ja": "一緒に学んでいただき、ありがとうございます",
        "zh-Hans": "感谢你和我们一起学习",
        "ar-SA": "شكرًا لأنك تتعلم معنا",
    },
    f"{M}/thanks/body": {
        "source": "Your lessons, reviews and offline downloads will be right here whenever you have a "
                  "few spare minutes to practice.",
        "de-DE": "Deine Lektionen, Wiederholungen und Offline-Downloads warten hier auf dich, wann immer "
                 "du ein paar Minuten zum Üben hast.",
        "fr-FR": "Vos leçons, révisions et téléchargements hors ligne vous attendent dès que vous avez "
                 "quelques minutes pour pratiquer.",
        "es-MX": "Tus lecciones, repasos y descargas sin conexión estarán aquí cada vez que tengas unos "
                 "minutos libres para practicar.",
        "pt-BR": "Suas lições, revisões e downloads offline estarão aqui sempre que você tiver alguns "
                 "minutos livres para praticar.",
        "ja": "レッスンも復習も、オフライン用のダウンロードも、ちょっとした空き時間にいつでも練習できるよう、ここでお待ちしています。",
        "zh-Hans": "你的课程、复习内容和离线下载都会一直在这里，只要有几分钟空闲，随时都能练习。",
        "ar-SA": "ستجد دروسك ومراجعاتك وتنزيلاتك المتاحة دون اتصال هنا كلما توفرت لديك بضع دقائق للتدرب.",
    },
    f"{M}/new-courses/header": {
        "source": "New to Parla this month",
        "de-DE": "Neu bei Parla in diesem Monat",
        "fr-FR": "Du nouveau sur Parla ce mois-ci",
        "es-MX": "Novedades de Parla este mes",
        "pt-BR": "Novidades no Parla este mês",
        "ja": "今月のParlaの新着コンテンツ",
        "zh-Hans": "Parla 本月新内容",
        "ar-SA": "الجديد في Parla هذا الشهر",
    },
    f"{M}/new-courses/body": {
        "source": "We've added travel phrasebooks and 40 new listening exercises. Keep Plus to try them "
                  "all at your own pace.",
        "de-DE": "Neu dabei: Reise-Sprachführer und 40 neue Hörübungen. Behalte Plus und probiere alles "
                 "in deinem Tempo aus.",
        "fr-FR": f"Nouveau{NNBSP}: des guides de conversation pour voyager et 40 nouveaux exercices "
                 "d’écoute. Gardez Plus pour tout essayer à votre rythme.",
        "es-MX": "Agregamos guías de frases para viajar y 40 nuevos ejercicios de comprensión auditiva. "
                 "Conserva Plus y pruébalos a tu ritmo.",
        "pt-BR": "Adicionamos guias de frases para viagem e 40 novos exercícios de escuta. Continue com "
                 "o Plus para experimentar tudo no seu ritmo.",
        "ja": "旅行で使えるフレーズ集と、40の新しいリスニング練習を追加しました。Plusを続けて、自分のペースで試してみてください。",
        "zh-Hans": "我们新增了旅行常用语手册和 40 个新的听力练习。继续使用 Plus，按自己的节奏全部体验。",
        "ar-SA": "أضفنا كتيبات عبارات للسفر و40 تمرين استماع جديدًا. احتفظ باشتراك Plus لتجربتها كلها "
                 "بالسرعة التي تناسبك.",
    },
    f"{M}/offer-three-months/header": {
        "source": "3 months of Plus at 30% off",
        "de-DE": f"3 Monate Plus 30{NBSP}% günstiger",
        "fr-FR": f"3 mois de Plus avec 30{NNBSP}% de réduction",
        "es-MX": "3 meses de Plus con 30% de descuento",
        "pt-BR": "3 meses de Plus com 30% de desconto",
        "ja": "Plusが3か月間30%オフ",
        "zh-Hans": "Plus 3 个月享 30% 优惠",
        "ar-SA": "خصم 30% على 3 أشهر من Plus",
    },
    f"{M}/offer-three-months/body": {
        "source": "Stay with us and get 30% off your next 3 months of Parla Plus. Nothing else about "
                  "your plan changes.",
        "de-DE": f"Bleib bei uns und spare 30{NBSP}% bei deinen nächsten 3 Monaten Parla Plus. Sonst "
                 "ändert sich nichts an deinem Abo.",
        "fr-FR": f"Restez avec nous et profitez de 30{NNBSP}% de réduction sur vos 3 prochains mois de "
                 "Parla Plus. Rien d’autre ne change.",
        "es-MX": "Quédate con nosotros y obtén 30% de descuento en tus próximos 3 meses de Parla Plus. "
                 "Todo lo demás sigue igual.",
        "pt-BR": "Fique com a gente e ganhe 30% de desconto nos próximos 3 meses do Parla Plus. O resto "
                 "do seu plano continua igual.",
        "ja": "Parla Plusを続けると、次の3か月間が30%オフになります。プランのそのほかの内容は変わりません。",
        "zh-Hans": "继续使用 Parla Plus，接下来 3 个月享 30% 优惠。方案的其他内容保持不变。",
        "ar-SA": "ابق معنا واحصل على خصم 30% على Parla Plus لمدة 3 أشهر قادمة. لن يتغير أي شيء آخر في "
                 "خطتك.",
    },
    f"{M}/switch-yearly/header": {
        "source": "Save with the yearly plan",
        "de-DE": "Spare mit dem Jahresabo",
        "fr-FR": "Économisez avec l’abonnement annuel",
        "es-MX": "Ahorra con el plan anual",
        "pt-BR": "Economize com o plano anual",
        "ja": "年間プランでもっとお得に",
        "zh-Hans": "选择年度方案更划算",
        "ar-SA": "وفر مع الخطة السنوية",
    },
    f"{M}/switch-yearly/body": {
        "source": "Switch to yearly billing and get 12 months of Parla Plus for about the price of 8. "
                  "Your progress stays as it is.",
        "de-DE": "Wechsle zur jährlichen Abrechnung: 12 Monate Parla Plus für etwa den Preis von 8. "
                 "Dein Fortschritt bleibt, wie er ist.",
        "fr-FR": f"Passez à la facturation annuelle{NNBSP}: 12 mois de Parla Plus pour environ le prix "
                 "de 8. Votre progression reste intacte.",
        "es-MX": "Cámbiate a la facturación anual y obtén 12 meses de Parla Plus por el precio de unos "
                 "8. Tu progreso se queda igual.",
        "pt-BR": "Mude para a cobrança anual e tenha 12 meses de Parla Plus por cerca do preço de 8. "
                 "Seu progresso continua como está.",
        "ja": "年払いに切り替えると、約8か月分の料金でParla Plusを12か月ご利用いただけます。学習の進み具合はそのままです。",
        "zh-Hans": "切换为按年付费，只需约 8 个月的价格即可享受 12 个月的 Parla Plus。你的学习进度保持不变。",
        "ar-SA": "انتقل إلى الفوترة السنوية واحصل على 12 شهرًا من Parla Plus مقابل سعر 8 أشهر تقريبًا. "
                 "سيبقى تقدمك كما هو.",
    },

    # --- messages/plus/yearly.yaml -------------------------------------------------
    f"{Y}/winback/header": {
        "source": "Your streak is waiting for you",
        "de-DE": "Deine Lernserie wartet auf dich",
        "fr-FR": "Votre série vous attend",
        "es-MX": "Tu racha te está esperando",
        "pt-BR": "Sua sequência está esperando por você",
        "ja": "連続記録があなたを待っています",
        "zh-Hans": "你的连续学习记录在等你",
        "ar-SA": "سلسلة أيام تعلمك بانتظارك",
    },
    f"{Y}/winback/body": {
        "source": "Keep Parla Plus for another year and pick up where you left off. Your streak and "
                  "saved words stay with you.",
        "de-DE": "Behalte Parla Plus ein weiteres Jahr und mach da weiter, wo du aufgehört hast. Deine "
                 "Lernserie und deine Wörter bleiben erhalten.",
        "fr-FR": "Gardez Parla Plus une année de plus et reprenez là où vous en étiez. Votre série et "
                 "vos mots enregistrés sont conservés.",
        "es-MX": "Conserva Parla Plus un año más y retoma justo donde te quedaste. Tu racha y tus "
                 "palabras guardadas siguen contigo.",
        "pt-BR": "Continue com o Parla Plus por mais um ano e retome de onde parou. Sua sequência e "
                 "suas palavras salvas continuam com você.",
        "ja": "Parla Plusをもう一年続けて、前回の続きから再開しましょう。連続記録も保存した単語もそのまま残ります。",
        "zh-Hans": "再续订一年 Parla Plus，从上次停下的地方继续学习。你的连续记录和收藏的单词都会保留。",
        "ar-SA": "احتفظ باشتراك Parla Plus لعام آخر وتابع من حيث توقفت. ستبقى سلسلتك وكلماتك المحفوظة "
                 "كما هي.",
    },
    f"{Y}/winback/image.alt": {
        "source": "A winding path of lesson cards leading up to a bright sun",
        "de-DE": "Ein gewundener Weg aus Lektionskarten, der zu einer hellen Sonne hinaufführt",
        "fr-FR": "Un chemin sinueux de cartes de leçon qui monte vers un soleil éclatant",
        "es-MX": "Un camino sinuoso de tarjetas de lecciones que sube hacia un sol brillante",
        "pt-BR": "Um caminho sinuoso de cartões de lição subindo em direção a um sol brilhante",
        "ja": "明るい太陽へと続く、レッスンカードの曲がりくねった道",
        "zh-Hans": "一条由课程卡片铺成的蜿蜒小路，通向明亮的太阳",
        "ar-SA": "طريق متعرج من بطاقات الدروس يصعد نحو شمس ساطعة",
    },
    f"{Y}/benefits/header": {
        "source": "Everything that comes with Plus",
        "de-DE": "Alles, was Plus dir bietet",
        "fr-FR": "Tout ce que Plus vous offre",
        "es-MX": "Todo lo que incluye Plus",
        "pt-BR": "Tudo o que vem com o Plus",
        "ja": "Plusでできること",
        "zh-Hans": "Plus 为你带来的一切",
        "ar-SA": "كل ما يقدمه لك Plus",
    },
    f"{Y}/benefits/body": {
        "source": "Before you decide, here's a quick look at what your yearly plan includes. Nothing "
                  "changes until it ends.",
        "de-DE": "Bevor du dich entscheidest: ein kurzer Überblick über dein Jahresabo. Bis zum Ende "
                 "der Laufzeit ändert sich nichts.",
        "fr-FR": "Avant de décider, voici un bref aperçu de votre abonnement annuel. Rien ne change "
                 "avant sa date de fin.",
        "es-MX": "Antes de decidir, te mostramos lo que incluye tu plan anual. Nada cambia hasta que "
                 "termine.",
        "pt-BR": "Antes de decidir, veja um resumo do que o seu plano anual inclui. Nada muda até o fim "
                 "do período atual.",
        "ja": "お決めになる前に、年間プランの内容をご確認ください。現在の期間が終わるまで、何も変わりません。",
        "zh-Hans": "在做决定之前，先看看你的年度方案包含哪些内容。当前周期结束前，一切都不会改变。",
        "ar-SA": "قبل أن تقرر، إليك نظرة سريعة على ما تتضمنه خطتك السنوية. لن يتغير شيء حتى نهاية مدتها.",
    },
    f"{Y}/benefits/bullets.1.text": {
        "source": "Unlimited lessons in all 24 languages",
        "de-DE": "Unbegrenzt Lektionen in allen 24 Sprachen",
        "fr-FR": "Leçons illimitées dans les 24 langues",
        "es-MX": "Lecciones ilimitadas en los 24 idiomas",
        "pt-BR": "Lições ilimitadas nos 24 idiomas",
        "ja": "全24言語のレッスンが受け放題",
        "zh-Hans": "全部 24 种语言课程，无限畅学",
        "ar-SA": "دروس غير محدودة في 24 لغة",
    },
    f"{Y}/benefits/bullets.1.alt": {
        "source": "Green check mark",
        "de-DE": "Grünes Häkchen",
        "fr-FR": "Coche verte",
        "es-MX": "Palomita verde",
        "pt-BR": "Marca de seleção verde",
        "ja": "緑のチェックマーク",
        "zh-Hans": "绿色对勾",
        "ar-SA": "علامة اختيار خضراء",
    },
    f"{Y}/benefits/bullets.2.text": {
        "source": "Download lessons and learn offline",
        "de-DE": "Lektionen laden und offline lernen",
        "fr-FR": "Téléchargez vos leçons, apprenez hors ligne",
        "es-MX": "Descarga lecciones y aprende sin conexión",
        "pt-BR": "Baixe lições e estude offline",
        "ja": "レッスンをダウンロードしてオフラインで学習",
        "zh-Hans": "下载课程，离线也能学",
        "ar-SA": "نزل الدروس وتعلم دون اتصال",
    },
    f"{Y}/benefits/bullets.2.alt": {
        "source": "Arrow pointing down into a tray",
        "de-DE": "Pfeil, der nach unten in eine Ablage zeigt",
        "fr-FR": "Flèche pointant vers le bas, dans un bac",
        "es-MX": "Flecha que apunta hacia abajo, a una bandeja",
        "pt-BR": "Seta apontando para baixo, para dentro de uma bandeja",
        "ja": "トレイに向かって下を指す矢印",
        "zh-Hans": "指向下方托盘的箭头",
        "ar-SA": "سهم يشير إلى الأسفل نحو درج",
    },
    f"{Y}/benefits/bullets.3.text": {
        "source": "Speaking practice with instant feedback",
        "de-DE": "Sprechübungen mit sofortigem Feedback",
        "fr-FR": "Pratique de l’oral avec retour immédiat",
        "es-MX": "Práctica oral con comentarios al instante",
        "pt-BR": "Prática de conversação com feedback na hora",
        "ja": "すぐにフィードバックがもらえる会話練習",
        "zh-Hans": "口语练习，即时获得反馈",
        "ar-SA": "تدريب على المحادثة مع ملاحظات فورية",
    },
    f"{Y}/benefits/bullets.3.alt": {
        "source": "Speech bubble",
        "de-DE": "Sprechblase",
        "fr-FR": "Bulle de dialogue",
        "es-MX": "Globo de diálogo",
        "pt-BR": "Balão de fala",
        "ja": "吹き出し",
        "zh-Hans": "对话气泡",
        "ar-SA": "فقاعة حوار",
    },
    f"{Y}/offer-half-price/header": {
        "source": "Your next year at 50% off",
        "de-DE": f"Dein nächstes Jahr 50{NBSP}% günstiger",
        "fr-FR": f"Votre prochaine année avec 50{NNBSP}% de réduction",
        "es-MX": "Tu próximo año con 50% de descuento",
        "pt-BR": "Seu próximo ano com 50% de desconto",
        "ja": "次の一年間が50%オフ",
        "zh-Hans": "下一年立享 50% 优惠",
        "ar-SA": "خصم 50% على عامك القادم",
    },
    f"{Y}/offer-half-price/body": {
        "source": "Stay with Parla Plus and pay half the usual price for your next year, starting when "
                  "your current plan renews.",
        "de-DE": "Bleib bei Parla Plus und zahl für dein nächstes Jahr nur den halben Preis – ab der "
                 "Verlängerung deines aktuellen Abos.",
        "fr-FR": "Restez avec Parla Plus et payez votre prochaine année moitié prix, dès le "
                 "renouvellement de votre abonnement actuel.",
        "es-MX": "Quédate con Parla Plus y paga la mitad del precio habitual por tu próximo año, a "
                 "partir de la renovación de tu plan actual.",
        "pt-BR": "Fique com o Parla Plus e pague metade do preço normal no seu próximo ano, a partir da "
                 "renovação do seu plano atual.",
        "ja": "Parla Plusを続けると、次の一年間を通常の半額でご利用いただけます。現在のプランの更新時から適用されます。",
        "zh-Hans": "继续使用 Parla Plus，下一年只需支付平时一半的价格，自当前方案续订时起生效。",
        "ar-SA": "ابق مع Parla Plus وادفع نصف السعر المعتاد لعامك القادم، بدءًا من تجديد خطتك الحالية.",
    },
    f"{Y}/switch-monthly/header": {
        "source": "Prefer to pay month by month?",
        "de-DE": "Lieber monatlich zahlen?",
        "fr-FR": f"Vous préférez payer au mois{NNBSP}?",
        "es-MX": "¿Prefieres pagar mes a mes?",
        "pt-BR": "Prefere pagar mês a mês?",
        "ja": "月ごとのお支払いをご希望ですか？",
        "zh-Hans": "想按月付费吗？",
        "ar-SA": "هل تفضل الدفع شهريًا؟",
    },
    f"{Y}/switch-monthly/body": {
        "source": "Switch to the monthly plan and keep every Plus feature. You can change or cancel "
                  "your plan at any time.",
        "de-DE": "Wechsle zum Monatsabo und behalte alle Plus-Funktionen. Du kannst dein Abo jederzeit "
                 "ändern oder kündigen.",
        "fr-FR": "Passez à l’abonnement mensuel et gardez toutes les fonctionnalités Plus. Vous pouvez "
                 "le modifier ou le résilier à tout moment.",
        "es-MX": "Cámbiate al plan mensual y conserva todas las funciones de Plus. Puedes cambiar o "
                 "cancelar tu plan cuando quieras.",
        "pt-BR": "Mude para o plano mensal e mantenha todos os recursos do Plus. Você pode alterar ou "
                 "cancelar o plano quando quiser.",
        "ja": "月額プランに切り替えても、Plusの機能はすべてそのまま使えます。プランの変更や解約はいつでもできます。",
        "zh-Hans": "切换到月度方案，继续享有 Plus 的全部功能。你可以随时更改或取消方案。",
        "ar-SA": "انتقل إلى الخطة الشهرية واحتفظ بجميع ميزات Plus. يمكنك تغيير خطتك أو إلغاؤها في أي وقت.",
    },
}

# A few units a reviewer has already signed off or marked final; everything else is
# "translated". All of them meet the example project's minimumState (translated).
STATES = {
    ("de-DE", f"{Y}/winback/header"): "final",
    ("de-DE", f"{Y}/winback/body"): "final",
    ("fr-FR", f"{F}/stay-together/header"): "signed-off",
    ("fr-FR", f"{F}/stay-together/body"): "signed-off",
    ("es-MX", f"{M}/thanks/body"): "final",
    ("ja", f"{M}/thanks/header"): "signed-off",
    ("ja", f"{M}/thanks/body"): "signed-off",
    ("ar-SA", f"{Y}/winback/header"): "final",
}

# Characters no string may contain: C0/C1 controls, zero-width characters, bidi
# embeddings/overrides/isolates/marks, line and paragraph separators, BOM.
FORBIDDEN = re.compile("[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e"
                       "\u2028\u2029\u2060-\u2069\ufeff]")


def utf16_len(s):
    return len(s.encode("utf-16-le")) // 2


def numbers(s):
    """The values of the digit runs in s, in any script, sorted."""
    return sorted(int("".join(str(unicodedata.digit(c)) for c in run))
                  for run in re.findall(r"\d+", s))


class Problems(list):
    def add(self, msg):
        self.append(msg)


def check_text(problems, where, text, limit):
    if not isinstance(text, str) or not text:
        problems.add(f"{where}: empty or not a string")
        return
    n = utf16_len(text)
    if n > limit:
        problems.add(f"{where}: {n} UTF-16 units, limit {limit}: {text!r}")
    if text != text.strip():
        problems.add(f"{where}: leading or trailing white space")
    if unicodedata.normalize("NFC", text) != text:
        problems.add(f"{where}: not NFC")
    bad = FORBIDDEN.search(text)
    if bad:
        problems.add(f"{where}: forbidden character U+{ord(bad.group()):04X}")


def load_units(content, problems):
    """[(unit id, field kind, source text, product, message type, developer note)]"""
    units = []
    files = sorted(content.glob("messages/**/*.yaml"), key=lambda p: p.relative_to(content).as_posix().encode())
    for path in files:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for msg in doc["messages"]:
            base = f"{msg['product']}/{msg['key']}"
            fields = [("header", "header", msg.get("header")), ("body", "body", msg.get("body"))]
            if "image" in msg:
                fields.append(("image.alt", "alt", msg["image"].get("alt")))
            for i, bullet in enumerate(msg.get("bullets") or [], start=1):
                fields.append((f"bullets.{i}.text", "text", bullet.get("text")))
                fields.append((f"bullets.{i}.alt", "alt", bullet.get("alt")))
            for field, kind, text in fields:
                uid = f"{base}/{field}"
                where = f"{path.relative_to(content)}: {uid}"
                check_text(problems, where, text, LIMITS[kind])
                soft = int(LIMITS[kind] * SOURCE_HEADROOM)
                if isinstance(text, str) and utf16_len(text) > soft:
                    problems.add(f"{where}: source is {utf16_len(text)} units, above 80% of {LIMITS[kind]}")
                units.append((uid, field, kind, text, msg["product"], msg["type"], msg.get("note")))
    return units


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def esc_attr(s):
    return esc(s).replace('"', "&quot;")


def xliff(source_locale, locale, units):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
           f'  <file original="msgc" source-language="{source_locale}" target-language="{locale}" '
           'datatype="plaintext">',
           '    <header>',
           '      <tool tool-id="msgc" tool-name="msgc"/>',
           '    </header>',
           '    <body>']
    for uid, field, kind, source, product, mtype, note, target, state in units:
        limit = LIMITS[kind]
        out.append(f'      <trans-unit id="{esc_attr(uid)}" resname="{esc_attr(uid)}" maxwidth="{limit}" '
                   'size-unit="char" xml:space="preserve">')
        out.append(f'        <source>{esc(source)}</source>')
        out.append(f'        <target state="{state}">{esc(target)}</target>')
        if note:
            out.append(f'        <note from="developer">{esc(note)}</note>')
        out.append(f'        <note from="msgc">Product: {esc(product)}. Message type: {mtype}. '
                   f'Field: {field}. Limit: {limit} UTF-16 units.</note>')
        out.append('      </trans-unit>')
    out += ['    </body>', '  </file>', '</xliff>', '']
    return "\n".join(out)


def main(argv):
    if len(argv) > 2:
        sys.exit("usage: make-example-translations.py [CONTENT_DIR]")
    content = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent.parent / "content"
    config = yaml.safe_load((content / "msgc.yaml").read_text(encoding="utf-8"))
    source_locale = config["sourceLocale"]
    product_locales = {p["id"]: p.get("locales", config["locales"]) for p in config["products"]}

    problems = Problems()
    units = load_units(content, problems)
    known = {u[0] for u in units}
    for uid in TRANSLATIONS:
        if uid not in known:
            problems.add(f"TRANSLATIONS has {uid}, which no message source has")
    for key in STATES:
        if key[1] not in known:
            problems.add(f"STATES has {key}, which no message source has")

    per_locale = {loc: [] for loc in config["locales"] if loc != source_locale}
    for uid, field, kind, source, product, mtype, note in units:
        entry = TRANSLATIONS.get(uid)
        if entry is None:
            problems.add(f"{uid}: no translations")
            continue
        if entry["source"] != source:
            problems.add(f"{uid}: source changed, translations are stale\n  was: {entry['source']!r}\n"
                         f"  now: {source!r}")
        wanted = [loc for loc in product_locales[product] if loc != source_locale]
        extra = set(entry) - {"source"} - set(wanted)
        if extra:
            problems.add(f"{uid}: translations for locales outside the product's list: {sorted(extra)}")
        for loc in wanted:
            target = entry.get(loc)
            where = f"{loc}: {uid}"
            if target is None:
                problems.add(f"{where}: missing")
                continue
            check_text(problems, where, target, LIMITS[kind])
            if target == source:
                problems.add(f"{where}: identical to the source")
            if numbers(target) != numbers(source):
                problems.add(f"{where}: numbers {numbers(target)} differ from source {numbers(source)}")
            state = STATES.get((loc, uid), "translated")
            per_locale[loc].append((uid, field, kind, source, product, mtype, note, target, state))

    if problems:
        print(f"{len(problems)} problem(s); nothing written:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        sys.exit(1)

    out_dir = content / "translations"
    out_dir.mkdir(parents=True, exist_ok=True)
    for loc, loc_units in per_locale.items():
        path = out_dir / f"{loc}.xliff"
        path.write_text(xliff(source_locale, loc, loc_units), encoding="utf-8", newline="\n")
        longest = max(utf16_len(u[7]) * 100 // LIMITS[u[2]] for u in loc_units)
        print(f"{path}: {len(loc_units)} units, longest at {longest}% of its limit")


if __name__ == "__main__":
    main(sys.argv)
