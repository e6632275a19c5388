#!/usr/bin/env python3
"""Write a content tree for the benchmark (BENCHMARKS.md, scripts/benchmark.py).

Usage: make-benchmark-corpus.py PRESET OUTPUT_DIR [--seed N]

PRESET is one of:
  app    Apple's cap for one app: 2,000 messages in one environment. msgc counts a message
         once per locale it ships in (PRJ006), so this is 10 products x 5 messages x 40
         locales = 2,000 localized messages, every one of them shipped.
  10x    ten times that: 100 products, 20,000 localized messages.
  100x   a hundred times: 1,000 products, 200,000 localized messages.

The 10x and 100x trees are deliberately beyond Apple's cap: `msgc lint` still does all the
work and reports one PRJ006 error, and `msgc build` stops on it (exit 1, nothing written).

Every product has five messages: a default text message with a full-size image above which
the header sits and 3-5 bullets, a text message with an image and 0-5 bullets, a text message
with bullets and no image, a promotional offer and a switch-plan message. Full-size images are
real 8-bit RGB PNGs 3840 px wide and 160-2160 px high (two per product), bullet icons 1024 x
1024 (a shared set of 24), all without alpha, as the IMG rules require.

The tree has 40 locales: App Store Connect's 39 codes plus `sl`, admitted through
`extraLocales` (one of the 2026 additions). en-US is the source; every other locale has a
translated XLIFF 1.2 file in the shape `msgc extract` writes, with every unit translated.
Text is made of real words of each language and script (Arabic and Hebrew right to left, CJK
and Thai without spaces, an emoji now and then), with lengths counted in UTF-16 units, the
project's lengthMeasure: sources at 55-80% of their limit (msgc warns above 80%),
translations at 85-100% (translations run longer). Numbers in a source (`40%`) stay the same
in every translation. The tree lints without a single finding at the app preset.

The output depends only on the preset and the seed (default 1): the same arguments give the
same bytes. Only the standard library is used.
"""

import argparse
import random
import shutil
import struct
import sys
import unicodedata
import zlib
from pathlib import Path

PRESETS = {"app": 10, "10x": 100, "100x": 1000}  # products; each has 5 messages
MESSAGES_PER_PRODUCT = 5
NAMESPACE = "6f1d8c52-3a7e-4b9d-9c61-2f0e8a4b7d13"
BUNDLE_ID = "com.example.lumen"
SOURCE_LOCALE = "en-US"
EXTRA_LOCALES = ["sl"]
LOCALES = [
    "en-US", "ar-SA", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB",
    "es-ES", "es-MX", "fi", "fr-CA", "fr-FR", "he", "hi", "hr", "hu", "id",
    "it", "ja", "ko", "ms", "nl-NL", "no", "pl", "pt-BR", "pt-PT", "ro",
    "ru", "sk", "sl", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant",
]
# Apple's limits, in UTF-16 code units (msgc's default lengthMeasure).
LIMITS = {"header": 66, "body": 144, "alt": 150, "text": 66}
FULL_WIDTH, ICON_SIZE, ICON_COUNT = 3840, 1024, 24

# Words of each language, about subscriptions, learning and reading. Text is drawn from
# these; it is not meant to read as sentences, only to have each script's characters,
# word lengths and byte counts.
ENGLISH = ("your plan keeps every lesson story reading list offline saved word streak family "
           "profile reminder course audio guide practice daily progress together members "
           "premium access library issue archive newsletter stay with us enjoy another year "
           "unlimited articles podcasts weekly digest favourite topics morning edition").split()
WORDS = {
    "en-US": ENGLISH,
    "en-GB": ENGLISH + "colour favourite programme organise personalised catalogue".split(),
    "en-AU": ENGLISH + "mate arvo colour favourite organise".split(),
    "en-CA": ENGLISH + "colour favourite toque neighbour centre".split(),
    "ar-SA": "اشتراكك يمنحك كل الدروس والقصص وقائمة القراءة دون اتصال الكلمات المحفوظة سلسلة الأيام "
             "العائلة الملف الشخصي تذكير الدورة الصوتية دليل التدريب اليومي التقدم معًا الأعضاء "
             "المميزة مكتبة الأرشيف النشرة ابق معنا استمتع بسنة أخرى مقالات غير محدودة".split(),
    "ca": "el teu pla manté cada lliçó història llista de lectura sense connexió paraules desades "
          "ratxa família perfil recordatori curs àudio guia pràctica diària progrés junts membres "
          "accés biblioteca arxiu butlletí queda't amb nosaltres gaudeix d'un altre any".split(),
    "cs": "váš plán uchová každou lekci příběh seznam čtení offline uložená slova série rodina "
          "profil připomínka kurz zvuk průvodce denní procvičování pokrok společně členové "
          "prémiový přístup knihovna archiv zpravodaj zůstaňte s námi užijte si další rok".split(),
    "da": "dit abonnement gemmer hver lektion historie læseliste offline gemte ord stribe familie "
          "profil påmindelse kursus lyd guide daglig øvelse fremskridt sammen medlemmer adgang "
          "bibliotek arkiv nyhedsbrev bliv hos os nyd endnu et år ubegrænsede artikler".split(),
    "de-DE": "Ihr Abo behält jede Lektion Geschichte Leseliste offline gespeicherte Wörter Lernserie "
             "Familie Profil Erinnerung Kurs Hörbuch Leitfaden tägliche Übung Fortschritt gemeinsam "
             "Mitglieder Zugang Bibliothek Archiv Newsletter bleiben Sie bei uns genießen Sie ein "
             "weiteres Jahr unbegrenzte Artikel Morgenausgabe Lieblingsthemen".split(),
    "el": "το πρόγραμμά σας κρατά κάθε μάθημα ιστορία λίστα ανάγνωσης εκτός σύνδεσης αποθηκευμένες "
          "λέξεις σερί οικογένεια προφίλ υπενθύμιση μάθημα ήχος οδηγός καθημερινή εξάσκηση πρόοδος "
          "μαζί μέλη πρόσβαση βιβλιοθήκη αρχείο ενημερωτικό μείνετε μαζί μας απολαύστε άλλη χρονιά".split(),
    "es-ES": "tu plan conserva cada lección historia lista de lectura sin conexión palabras guardadas "
             "racha familia perfil recordatorio curso audio guía práctica diaria progreso juntos "
             "miembros acceso biblioteca archivo boletín quédate con nosotros disfruta otro año".split(),
    "es-MX": "tu plan guarda cada lección historia lista de lectura sin conexión palabras guardadas "
             "racha familia perfil recordatorio curso audio guía práctica diaria progreso juntos "
             "integrantes acceso biblioteca archivo boletín quédate con nosotros disfruta otro año".split(),
    "fi": "tilauksesi säilyttää jokaisen oppitunnin tarinan lukulistan offline tallennetut sanat "
          "putki perhe profiili muistutus kurssi ääni opas päivittäinen harjoitus edistyminen "
          "yhdessä jäsenet pääsy kirjasto arkisto uutiskirje pysy kanssamme nauti vielä vuosi".split(),
    "fr-FR": "votre abonnement garde chaque leçon histoire liste de lecture hors ligne mots enregistrés "
             "série famille profil rappel cours audio guide pratique quotidienne progression ensemble "
             "membres accès bibliothèque archives lettre restez avec nous profitez d’une autre année".split(),
    "fr-CA": "votre abonnement conserve chaque leçon histoire liste de lecture hors connexion mots "
             "sauvegardés série famille profil rappel cours audio guide pratique quotidienne progrès "
             "ensemble membres accès bibliothèque archives infolettre restez avec nous profitez".split(),
    "he": "המנוי שלך שומר כל שיעור סיפור רשימת קריאה במצב לא מקוון מילים שמורות רצף משפחה פרופיל "
          "תזכורת קורס שמע מדריך תרגול יומי התקדמות יחד חברים גישה ספרייה ארכיון ניוזלטר הישארו "
          "איתנו תיהנו משנה נוספת כתבות ללא הגבלה".split(),
    "hi": "आपकी योजना हर पाठ कहानी पढ़ने की सूची ऑफ़लाइन सहेजे गए शब्द लगातार दिन परिवार प्रोफ़ाइल "
          "रिमाइंडर कोर्स ऑडियो गाइड रोज़ का अभ्यास प्रगति साथ में सदस्य पहुँच लाइब्रेरी संग्रह "
          "न्यूज़लेटर हमारे साथ रहें एक और साल का आनंद लें असीमित लेख".split(),
    "hr": "vaša pretplata čuva svaku lekciju priču popis za čitanje izvanmrežno spremljene riječi "
          "niz obitelj profil podsjetnik tečaj zvuk vodič svakodnevna vježba napredak zajedno "
          "članovi pristup knjižnica arhiva bilten ostanite s nama uživajte još godinu".split(),
    "hu": "az előfizetésed megőriz minden leckét történetet olvasólistát offline mentett szavak "
          "sorozat család profil emlékeztető tanfolyam hang útmutató napi gyakorlás haladás együtt "
          "tagok hozzáférés könyvtár archívum hírlevél maradj velünk élvezz még egy évet".split(),
    "id": "paket Anda menyimpan setiap pelajaran cerita daftar bacaan offline kata tersimpan "
          "runtunan keluarga profil pengingat kursus audio panduan latihan harian kemajuan bersama "
          "anggota akses perpustakaan arsip buletin tetap bersama kami nikmati setahun lagi".split(),
    "it": "il tuo piano conserva ogni lezione storia elenco di lettura offline parole salvate serie "
          "famiglia profilo promemoria corso audio guida pratica quotidiana progressi insieme membri "
          "accesso biblioteca archivio newsletter resta con noi goditi un altro anno".split(),
    "ja": "プランでは すべてのレッスン 物語 リーディングリスト オフライン 保存した単語 連続記録 家族 "
          "プロフィール リマインダー コース 音声 ガイド 毎日の練習 進捗 一緒に メンバー アクセス "
          "ライブラリ アーカイブ ニュースレター これからも もう一年 お楽しみください 記事読み放題".split(),
    "ko": "요금제로 모든 레슨 이야기 읽기 목록 오프라인 저장한 단어 연속 기록 가족 프로필 알림 코스 "
          "오디오 가이드 매일 연습 진행 상황 함께 구성원 이용 라이브러리 보관함 뉴스레터 "
          "저희와 함께하세요 한 해 더 즐기세요 무제한 기사".split(),
    "ms": "pelan anda menyimpan setiap pelajaran cerita senarai bacaan luar talian perkataan "
          "disimpan rentetan keluarga profil peringatan kursus audio panduan latihan harian kemajuan "
          "bersama ahli akses perpustakaan arkib surat berita kekal bersama kami nikmati".split(),
    "nl-NL": "je abonnement bewaart elke les verhaal leeslijst offline opgeslagen woorden reeks "
             "gezin profiel herinnering cursus audio gids dagelijkse oefening voortgang samen leden "
             "toegang bibliotheek archief nieuwsbrief blijf bij ons geniet nog een jaar".split(),
    "no": "abonnementet ditt tar vare på hver leksjon historie leseliste frakoblet lagrede ord "
          "rekke familie profil påminnelse kurs lyd veiledning daglig øving fremgang sammen "
          "medlemmer tilgang bibliotek arkiv nyhetsbrev bli hos oss nyt enda et år".split(),
    "pl": "twój plan zachowuje każdą lekcję historię listę lektur offline zapisane słowa seria "
          "rodzina profil przypomnienie kurs dźwięk przewodnik codzienna praktyka postępy razem "
          "członkowie dostęp biblioteka archiwum biuletyn zostań z nami ciesz się kolejnym rokiem".split(),
    "pt-BR": "seu plano mantém cada lição história lista de leitura offline palavras salvas sequência "
             "família perfil lembrete curso áudio guia prática diária progresso juntos membros acesso "
             "biblioteca arquivo boletim fique com a gente aproveite mais um ano".split(),
    "pt-PT": "o seu plano mantém cada lição história lista de leitura offline palavras guardadas "
             "sequência família perfil lembrete curso áudio guia prática diária progresso juntos "
             "membros acesso biblioteca arquivo boletim fique connosco aproveite mais um ano".split(),
    "ro": "abonamentul tău păstrează fiecare lecție poveste listă de lectură offline cuvinte salvate "
          "serie familie profil memento curs audio ghid exercițiu zilnic progres împreună membri "
          "acces bibliotecă arhivă buletin rămâi cu noi bucură-te de încă un an".split(),
    "ru": "ваша подписка сохраняет каждый урок историю список чтения офлайн сохранённые слова серию "
          "семья профиль напоминание курс аудио гид ежедневная практика прогресс вместе участники "
          "доступ библиотека архив рассылка оставайтесь с нами наслаждайтесь ещё одним годом".split(),
    "sk": "váš plán uchová každú lekciu príbeh zoznam na čítanie offline uložené slová séria rodina "
          "profil pripomienka kurz zvuk sprievodca denné cvičenie pokrok spolu členovia prístup "
          "knižnica archív spravodaj zostaňte s nami užite si ďalší rok".split(),
    "sl": "vaša naročnina ohrani vsako lekcijo zgodbo seznam branja brez povezave shranjene besede "
          "niz družina profil opomnik tečaj zvok vodnik vsakodnevna vaja napredek skupaj člani "
          "dostop knjižnica arhiv novice ostanite z nami uživajte še eno leto".split(),
    "sv": "ditt abonnemang sparar varje lektion berättelse läslista offline sparade ord svit familj "
          "profil påminnelse kurs ljud guide daglig övning framsteg tillsammans medlemmar åtkomst "
          "bibliotek arkiv nyhetsbrev stanna hos oss njut av ett år till".split(),
    "th": "แพ็กเกจของคุณ เก็บทุกบทเรียน เรื่องราว รายการอ่าน ออฟไลน์ คำที่บันทึกไว้ สถิติต่อเนื่อง ครอบครัว "
          "โปรไฟล์ การแจ้งเตือน คอร์ส เสียง คู่มือ ฝึกทุกวัน ความคืบหน้า ด้วยกัน สมาชิก การเข้าถึง "
          "คลังเนื้อหา คลังเก่า จดหมายข่าว อยู่กับเรา สนุกอีกหนึ่งปี".split(),
    "tr": "planınız her dersi hikâyeyi okuma listesini çevrimdışı kaydedilen kelimeler seri aile "
          "profil hatırlatıcı kurs ses rehber günlük pratik ilerleme birlikte üyeler erişim "
          "kütüphane arşiv bülten bizimle kalın bir yıl daha keyfini çıkarın".split(),
    "uk": "ваша підписка зберігає кожен урок історію список читання офлайн збережені слова серію "
          "родина профіль нагадування курс аудіо посібник щоденна практика прогрес разом учасники "
          "доступ бібліотека архів розсилка залишайтеся з нами насолоджуйтеся ще одним роком".split(),
    "vi": "gói của bạn giữ mọi bài học câu chuyện danh sách đọc ngoại tuyến từ đã lưu chuỗi ngày "
          "gia đình hồ sơ lời nhắc khóa học âm thanh hướng dẫn luyện tập hằng ngày tiến độ cùng nhau "
          "thành viên truy cập thư viện kho lưu trữ bản tin hãy ở lại với chúng tôi thêm một năm".split(),
    "zh-Hans": "你的方案 保留每一课 故事 阅读列表 离线 已保存的单词 连续学习 家庭 个人资料 提醒 课程 "
               "音频 指南 每日练习 进度 一起 成员 访问 书库 存档 简报 继续与我们同行 再享一年 无限文章".split(),
    "zh-Hant": "你的方案 保留每一課 故事 閱讀清單 離線 已儲存的單字 連續學習 家庭 個人檔案 提醒 課程 "
               "音訊 指南 每日練習 進度 一起 成員 存取 書庫 封存 電子報 繼續與我們同行 再享一年 無限文章".split(),
}
# Scripts written without spaces between words.
UNSPACED = {"ja", "zh-Hans", "zh-Hant", "th"}
FULL_STOP = {"ja": "。", "zh-Hans": "。", "zh-Hant": "。", "hi": "।", "ar-SA": ".", "th": ""}
EMOJI = ["🎉", "📚", "🎧", "⭐", "🔥", "🌍", "💡", "📰"]


def utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


def sentence(rng, locale, length, number=None, emoji=None):
    """Words of `locale` of about `length` UTF-16 units (never more), NFC, no stray space."""
    words, spaced = WORDS[locale], locale not in UNSPACED
    stop = FULL_STOP.get(locale, ".")
    tail = ""
    if number is not None:
        tail += (" " if spaced else "") + f"{number}%"
    if emoji:
        tail += " " + emoji
    tail += stop
    budget = length - utf16_len(tail)
    text = ""
    for _ in range(200):
        word = rng.choice(words)
        candidate = (text + " " + word) if (text and spaced) else text + word
        if utf16_len(candidate) > budget:
            if utf16_len(text) >= budget - 6:
                break
            continue
        text = candidate
    if not text:
        text = words[0]
    text = text[0].upper() + text[1:]
    return unicodedata.normalize("NFC", text + tail)


def target_length(rng, limit, is_source):
    low, high = (0.55, 0.8) if is_source else (0.85, 1.0)
    return rng.randint(int(limit * low), int(limit * high))


# ---------------------------------------------------------------------------
# PNG: 8-bit RGB, no alpha. A row is a list of (x0, x1, colour) spans covering the width;
# the "Sub" filter makes a row of flat spans almost all zeros, and a row that repeats the
# one above is filtered "Up" (all zeros), so zlib squeezes even 3840 x 2160 into a few KB.
# ---------------------------------------------------------------------------


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(width, height, row_spans):
    """row_spans(y) gives row y's spans; equal consecutive rows are written once."""
    compressor = zlib.compressobj(9)
    idat = []
    previous = None
    zero_row = b"\x02" + bytes(width * 3)
    for y in range(height):
        spans = row_spans(y)
        if spans == previous:
            idat.append(compressor.compress(zero_row))
            continue
        row = bytearray(1 + width * 3)
        row[0] = 1  # Sub
        last = (0, 0, 0)
        for x0, x1, colour in spans:
            if x1 <= x0:
                continue
            for channel in range(3):
                row[1 + x0 * 3 + channel] = (colour[channel] - last[channel]) & 0xFF
            last = colour
        idat.append(compressor.compress(bytes(row)))
        previous = spans
    idat.append(compressor.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", b"".join(idat)) + _chunk(b"IEND", b"")


def colour(rng):
    return (rng.randint(30, 250), rng.randint(30, 250), rng.randint(30, 250))


def boxes_image(rng, width, height, count):
    """Horizontal bands of colour with `count` flat rectangles over them."""
    bands = sorted(rng.sample(range(1, height), min(height - 1, rng.randint(3, 12))))
    band_colours = [colour(rng) for _ in range(len(bands) + 1)]
    boxes = []
    for _ in range(count):
        w, h = rng.randint(width // 12, width // 3), rng.randint(max(2, height // 8), max(3, height // 2))
        x, y = rng.randint(0, width - w), rng.randint(0, height - h)
        boxes.append((x, y, x + w, y + h, colour(rng)))

    def row_spans(y):
        background = band_colours[sum(1 for b in bands if b <= y)]
        cuts = {0: background}
        ends = []
        for x0, y0, x1, y1, c in boxes:
            if y0 <= y < y1:
                cuts[x0] = c
                ends.append(x1)
        spans = []
        positions = sorted(set(cuts) | set(ends) | {width})
        for start, end in zip(positions, positions[1:]):
            # The colour at `start`: the last box covering it, else the background.
            c = background
            for x0, y0, x1, y1, bc in boxes:
                if y0 <= y < y1 and x0 <= start < x1:
                    c = bc
            spans.append((start, end, c))
        return spans

    return encode_png(width, height, row_spans)


# ---------------------------------------------------------------------------
# The tree
# ---------------------------------------------------------------------------


def yaml_quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attribute(text):
    return xml_escape(text).replace('"', "&quot;")


def plan_messages(seed, product_count):
    """[(path, product, [message dict])]: what every message source holds."""
    files = []
    for p in range(product_count):
        product = f"{BUNDLE_ID}.p{p:04d}.{'yearly' if p % 2 == 0 else 'monthly'}"
        rng = random.Random(f"{seed}:product:{product}")
        heroes = [f"images/heroes/p{p:04d}-{i}.png" for i in (1, 2)]
        kinds = [("welcome-back", "text", heroes[0], rng.randint(3, 5)),
                 ("whats-new", "text", heroes[1], rng.randint(0, 5)),
                 ("your-library", "text", None, rng.randint(1, 5)),
                 ("offer", "promotional-offer", None, 0),
                 ("switch-plan", "switch-plan", None, 0)]
        messages = []
        for index, (key, message_type, hero, bullet_count) in enumerate(kinds):
            mrng = random.Random(f"{seed}:message:{product}:{key}")
            number = mrng.choice([20, 25, 30, 40, 50]) if message_type == "promotional-offer" or mrng.random() < 0.3 else None
            emoji = mrng.choice(EMOJI) if mrng.random() < 0.15 else None
            message = {"key": key, "product": product, "type": message_type, "default": index == 0,
                       "number": number, "emoji": emoji, "hero": hero,
                       "bullets": [f"images/icons/icon-{mrng.randrange(ICON_COUNT):02d}.png" for _ in range(bullet_count)],
                       "note": f"Shown to a subscriber of {product.rsplit('.', 2)[1]} who turns off auto-renew. "
                               + ("Keep the percentage as it is. " if number else "")
                               + "Friendly and short; address the subscriber directly."}
            messages.append(message)
        group = p // 100
        files.append((f"messages/group-{group:02d}/p{p:04d}.yaml", product, messages))
    return files


def fields(message):
    """[(field name, limit kind)] in the order msgc's Message.fields gives them."""
    result = [("header", "header"), ("body", "body")]
    if message["hero"]:
        result.append(("image.alt", "alt"))
    for i in range(len(message["bullets"])):
        result += [(f"bullets.{i + 1}.text", "text"), (f"bullets.{i + 1}.alt", "alt")]
    return result


def text_for(seed, message, field, kind, locale):
    rng = random.Random(f"{seed}:text:{message['product']}/{message['key']}/{field}:{locale}")
    is_source = locale == SOURCE_LOCALE
    number = message["number"] if field in ("header", "body") else None
    emoji = message["emoji"] if field == "body" else None
    return sentence(rng, locale, target_length(rng, LIMITS[kind], is_source), number, emoji)


def write_message_source(path, messages, seed):
    lines = ["# Generated by scripts/make-benchmark-corpus.py.", "messages:"]
    for message in messages:
        text = {field: text_for(seed, message, field, kind, SOURCE_LOCALE) for field, kind in fields(message)}
        lines += [f"  - key: {message['key']}",
                  f"    product: {message['product']}",
                  f"    type: {message['type']}"]
        if message["default"]:
            lines.append("    default: true")
        lines += [f"    header: {yaml_quote(text['header'])}",
                  f"    body: {yaml_quote(text['body'])}"]
        if message["hero"]:
            lines += ["    headerPosition: above-image" if message["default"] else "    headerPosition: above-body",
                      "    image:",
                      f"      file: {message['hero']}",
                      f"      alt: {yaml_quote(text['image.alt'])}"]
        if message["bullets"]:
            lines.append("    bullets:")
            for i, icon in enumerate(message["bullets"], start=1):
                lines += [f"      - text: {yaml_quote(text[f'bullets.{i}.text'])}",
                          f"        image: {icon}",
                          f"        alt: {yaml_quote(text[f'bullets.{i}.alt'])}"]
        lines.append(f"    note: {yaml_quote(message['note'])}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")


def write_xliff(path, locale, files, seed):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
           f'  <file original="msgc" source-language="{SOURCE_LOCALE}" target-language="{locale}" datatype="plaintext">',
           '    <header>',
           '      <tool tool-id="msgc" tool-name="msgc"/>',
           '    </header>',
           '    <body>']
    for _, _, messages in files:
        for message in messages:
            for field, kind in fields(message):
                uid = xml_attribute(f"{message['product']}/{message['key']}/{field}")
                source = text_for(seed, message, field, kind, SOURCE_LOCALE)
                target = text_for(seed, message, field, kind, locale)
                if target == source:
                    target = text_for(seed + 1, message, field, kind, locale)
                state = "signed-off" if (hash_of(uid, locale) % 5 == 0) else "translated"
                out += [f'      <trans-unit id="{uid}" resname="{uid}" maxwidth="{LIMITS[kind]}" size-unit="char" xml:space="preserve">',
                        f'        <source>{xml_escape(source)}</source>',
                        f'        <target state="{state}">{xml_escape(target)}</target>',
                        f'        <note from="developer">{xml_escape(message["note"])}</note>',
                        f'        <note from="msgc">Product: {message["product"]}. Message type: {message["type"]}. '
                        f'Field: {field}. Limit: {LIMITS[kind]} UTF-16 units.</note>',
                        '      </trans-unit>']
    out += ['    </body>', '  </file>', '</xliff>', '']
    path.write_text("\n".join(out), encoding="utf-8", newline="\n")


def hash_of(*parts):
    """A stable small hash (Python's own hash() of a str changes per process)."""
    return zlib.crc32(":".join(parts).encode())


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("preset", choices=sorted(PRESETS))
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv[1:])

    out = args.out
    if out.exists():
        shutil.rmtree(out)
    (out / "translations").mkdir(parents=True)
    files = plan_messages(args.seed, PRESETS[args.preset])

    product_lines = "\n".join(f"  - id: {product}" for _, product, _ in files)
    (out / "msgc.yaml").write_text(
        f"# Generated by scripts/make-benchmark-corpus.py {args.preset} --seed {args.seed}.\n"
        f"bundleId: {BUNDLE_ID}\n"
        f"sourceLocale: {SOURCE_LOCALE}\n"
        f"locales: [{', '.join(LOCALES)}]\n"
        f"extraLocales: [{', '.join(EXTRA_LOCALES)}]\n"
        f"namespace: {NAMESPACE}\n"
        "minimumState: translated\n"
        "lengthMeasure: utf16\n"
        f"products:\n{product_lines}\n", encoding="utf-8", newline="\n")

    for relative, _, messages in files:
        write_message_source(out / relative, messages, args.seed)

    for i in range(ICON_COUNT):
        rng = random.Random(f"{args.seed}:icon:{i}")
        path = out / "images" / "icons" / f"icon-{i:02d}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(boxes_image(rng, ICON_SIZE, ICON_SIZE, 3))
    for _, _, messages in files:
        for message in messages:
            if message["hero"]:
                rng = random.Random(f"{args.seed}:hero:{message['hero']}")
                path = out / message["hero"]
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(boxes_image(rng, FULL_WIDTH, rng.randint(160, 2160), 4))

    for locale in LOCALES:
        if locale != SOURCE_LOCALE:
            write_xliff(out / "translations" / f"{locale}.xliff", locale, files, args.seed)

    messages = sum(len(m) for _, _, m in files)
    units = sum(len(fields(m)) for _, _, ms in files for m in ms)
    print(f"{out}: {args.preset}, seed {args.seed}: {len(files)} products, {messages} messages x "
          f"{len(LOCALES)} locales = {messages * len(LOCALES)} localized messages, "
          f"{units} units in each of {len(LOCALES) - 1} XLIFF files")


if __name__ == "__main__":
    main(sys.argv)
