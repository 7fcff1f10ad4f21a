// Import names → distribution (PyPI project) names, where they differ or are easily confused.
// Keys are a top-level module or a dotted prefix (the longest prefix wins); values list the
// accepted distributions, the first being the one a quick fix adds.

const MAP = `
yaml PyYAML|ruamel.yaml
PIL Pillow
sklearn scikit-learn
skimage scikit-image
bs4 beautifulsoup4
cv2 opencv-python|opencv-python-headless|opencv-contrib-python|opencv-contrib-python-headless
dateutil python-dateutil
dotenv python-dotenv
jwt PyJWT
jose python-jose
magic python-magic
docx python-docx
pptx python-pptx
Crypto pycryptodome|pycrypto
Cryptodome pycryptodomex
OpenSSL pyOpenSSL
serial pyserial
usb pyusb
attr attrs
attrs attrs
google.protobuf protobuf
google.genai google-genai
google.generativeai google-generativeai
google.auth google-auth
google.oauth2 google-auth
google_auth_oauthlib google-auth-oauthlib
googleapiclient google-api-python-client
grpc grpcio
fitz PyMuPDF
pymupdf PyMuPDF
github PyGithub
git GitPython
gitlab python-gitlab
MySQLdb mysqlclient
pymysql PyMySQL
psycopg2 psycopg2|psycopg2-binary
psycopg psycopg|psycopg-binary
cx_Oracle cx-Oracle
slack_sdk slack-sdk
slack slackclient
telegram python-telegram-bot
discord discord.py
socks PySocks
nacl PyNaCl
win32api pywin32
win32con pywin32
win32com pywin32
pythoncom pywin32
pywintypes pywin32
zmq pyzmq
Levenshtein python-Levenshtein|Levenshtein
multipart python-multipart
ldap python-ldap
pkg_resources setuptools
markdown Markdown
jinja2 Jinja2
markupsafe MarkupSafe
sentence_transformers sentence-transformers
faiss faiss-cpu|faiss-gpu
Bio biopython
mpl_toolkits matplotlib
pylab matplotlib
kafka kafka-python
snowflake.connector snowflake-connector-python
websocket websocket-client
gi PyGObject
wx wxPython
pydantic_settings pydantic-settings
langchain_openai langchain-openai
langchain_anthropic langchain-anthropic
langchain_community langchain-community
langchain_core langchain-core
langchain_text_splitters langchain-text-splitters
llama_index llama-index
pdfminer pdfminer.six
dns dnspython
xlsxwriter XlsxWriter
sqlalchemy SQLAlchemy
bson pymongo
gridfs pymongo
huggingface_hub huggingface-hub
deep_translator deep-translator
babel Babel
unidecode Unidecode
charset_normalizer charset-normalizer
email_validator email-validator
barcode python-barcode
fpdf fpdf2|fpdf
camelot camelot-py
tabula tabula-py
speech_recognition SpeechRecognition
gtts gTTS
wikipediaapi Wikipedia-API
youtube_transcript_api youtube-transcript-api
yt_dlp yt-dlp
scrapy Scrapy
cairosvg CairoSVG
wand Wand
shapely Shapely
osgeo GDAL
notion_client notion-client
atlassian atlassian-python-api
jenkins python-jenkins
newspaper newspaper3k|newspaper4k
readability readability-lxml
docx2pdf docx2pdf
pyairtable pyairtable
OpenGL PyOpenGL
pygments Pygments
typing_extensions typing-extensions
ruamel ruamel.yaml
tomli_w tomli-w
backports.zoneinfo backports.zoneinfo
sklearn_crfsuite sklearn-crfsuite
mistralai mistralai
azure.storage.blob azure-storage-blob
azure.identity azure-identity
azure.ai.openai azure-ai-openai
`;

let table: Map<string, string[]> | undefined;

function load(): Map<string, string[]> {
  if (!table) {
    table = new Map();
    for (const line of MAP.split('\n')) {
      const [mod, dists] = line.trim().split(' ');
      if (mod && dists) table.set(mod, dists.split('|'));
    }
  }
  return table;
}

/** PEP 503 normalisation of a distribution name (also what PEP 8 calls the canonical name). */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * Distributions that may provide an import, best first: the mapping table's entry for the longest
 * dotted prefix, then the namespace conventions (`google.cloud.x` → google-cloud-x, `azure.x` →
 * azure-x), then the top-level module name itself.
 */
export function distributionsFor(module: string): string[] {
  const t = load();
  const parts = module.split('.');
  for (let i = parts.length; i >= 1; i--) {
    const hit = t.get(parts.slice(0, i).join('.'));
    if (hit) return hit;
  }
  if ((parts[0] === 'google' || parts[0] === 'azure') && parts.length >= 2) {
    const depth = parts[0] === 'google' && parts[1] === 'cloud' && parts.length >= 3 ? 3 : 2;
    return [parts.slice(0, depth).join('-')];
  }
  return [parts[0]];
}
