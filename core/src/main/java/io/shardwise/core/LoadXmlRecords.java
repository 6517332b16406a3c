package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a LOAD XML file's rows with the JDK's StAX parser, streaming, and writes each row again as
 * XML that MariaDB's own reader ({@code READ_XML} of sql_load.cc) reads as the same row: the row
 * element with its attributes, its child elements (and theirs) with their text, entities escaped as
 * that reader decodes them ({@code &amp; &lt; &gt; &quot; &apos;}). The file is read as ISO-8859-1, one
 * char per byte, so every value is written back byte for byte whatever its character set (every
 * markup byte is ASCII); the backend converts it with the statement's CHARACTER SET.
 *
 * <p>MariaDB's reader is no XML parser: it also gives a row the attributes of the elements that
 * enclose it (a column missing from a row, a {@code xsi:nil} one included, takes the value of an
 * enclosing element's attribute of that name, as {@code <table_data name="t">} of a mysqldump file
 * does for a column {@code name}). {@link #ancestors()} are those elements' start tags, which the
 * runner writes before a node's rows, so a backend sees them as one MariaDB sees them in the file.
 *
 * <p>What StAX and MariaDB's reader read differently is refused (1235), never loaded differently:
 * a file that is not well-formed XML (MariaDB loads the rows it can find), a DTD, a character
 * reference ({@code &#65;}, which MariaDB keeps as written), a CDATA section (which MariaDB does not
 * read as text), a value with a line break in a file with a carriage return (XML reads CR LF as LF),
 * a tab, CR or LF inside an attribute value (XML reads it as a space, MariaDB keeps it). External
 * entities and DTDs are never read: no file of this host and no URL is opened, whatever the file says.
 *
 * <p>Memory: one row's XML at a time. Not thread-safe.
 */
final class LoadXmlRecords {
    private static final XMLInputFactory FACTORY = factory();

    /** An enclosing element's start tag, as written for the backends; {@code id} tells two equal tags apart. */
    record Ancestor(long id, String name, byte[] startTag) {}

    private final XMLStreamReader xml;
    private final SniffingReader source;
    private final String rowTag;
    private final String keyColumn;
    private final List<Ancestor> open = new ArrayList<>();
    private final List<Ancestor> view = java.util.Collections.unmodifiableList(open);
    private long ids;
    private final StringBuilder row = new StringBuilder(256);
    private boolean selfClosed;
    private String key;
    private boolean done;

    /** @param rowTag the tag of ROWS IDENTIFIED BY, without its angle brackets; @param keyColumn the column whose value {@link #key} returns, or null */
    LoadXmlRecords(InputStream in, String rowTag, String keyColumn) {
        this.rowTag = rowTag;
        this.keyColumn = keyColumn;
        this.source = new SniffingReader(in);
        try {
            this.xml = FACTORY.createXMLStreamReader(source);
        } catch (XMLStreamException e) {
            throw malformed(e);
        }
    }

    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, false);
        f.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setProperty(XMLInputFactory.RESOLVER, (javax.xml.stream.XMLResolver) (publicId, systemId, base, ns) -> {
            throw new XMLStreamException("external entity " + systemId + " not read");
        });
        try {
            f.setProperty("http://java.sun.com/xml/stream/properties/report-cdata-event", true);
        } catch (IllegalArgumentException ignored) {
            // another StAX implementation: CDATA then arrives as text, which the sniffer still sees
        }
        return f;
    }

    /** Skips {@code n} rows (IGNORE n ROWS); false when the file ended first. */
    boolean skip(long n) {
        for (long k = 0; k < n; k++) {
            if (!next()) {
                return false;
            }
        }
        return true;
    }

    /** Reads the next row; false at the end of the file. */
    boolean next() {
        if (done) {
            return false;
        }
        try {
            while (xml.hasNext()) {
                int event = xml.next();
                check(event);
                if (event == XMLStreamConstants.START_ELEMENT) {
                    String name = xml.getLocalName();
                    if (name.equals(rowTag)) {
                        readRow();
                        return true;
                    }
                    StringBuilder tag = new StringBuilder(64);
                    startTag(tag, name, false, false);
                    open.add(new Ancestor(++ids, name, tag.toString().getBytes(StandardCharsets.ISO_8859_1)));
                } else if (event == XMLStreamConstants.END_ELEMENT && !open.isEmpty()) {
                    open.removeLast();
                }
            }
            done = true;
            xml.close();
            return false;
        } catch (XMLStreamException e) {
            throw malformed(e);
        }
    }

    /** The row just read as XML (ISO-8859-1: a char is a byte of the file). */
    byte[] row() {
        return row.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /**
     * The row just read with {@code column = value} written as its last field, where MariaDB's reader
     * takes it whatever the row holds of that name (its last non-empty value of a name wins): an
     * attribute of a row without content, else a child element before the row's end tag. The key
     * Shardwise generates for a column the statement's list lacks: one MariaDB ignores the file's
     * values of that column and generates them all.
     */
    byte[] rowWith(String column, String value) {
        StringBuilder field = new StringBuilder(column.length() * 2 + value.length() + 8);
        if (selfClosed) {
            field.append(' ').append(column).append("=\"");
            escape(field, value);
            field.append('"');
        } else {
            field.append('<').append(column).append('>');
            escape(field, value);
            field.append("</").append(column).append('>');
        }
        int at = selfClosed ? row.length() - " />\n".length() : row.length() - ("</" + rowTag + ">\n").length();
        StringBuilder with = new StringBuilder(row.length() + field.length()).append(row, 0, at).append(field).append(row, at, row.length());
        return with.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The enclosing elements of the row just read, outermost first (a view, valid until the next row). */
    List<Ancestor> ancestors() {
        return view;
    }

    /**
     * The key column's value as MariaDB's reader takes it: the last non-empty attribute or element
     * text of that name in the row, else an enclosing element's attribute; null when none (NULL).
     */
    String key() {
        return key;
    }

    private void readRow() throws XMLStreamException {
        row.setLength(0);
        key = null;
        int depth = 0;
        boolean afterStart = false;
        String element = null; // the element whose first text is a value
        String fieldName = null; // <field name="..."> names its value
        StringBuilder text = new StringBuilder();
        int event = XMLStreamConstants.START_ELEMENT;
        while (true) {
            switch (event) {
                case XMLStreamConstants.START_ELEMENT -> {
                    value(element, fieldName, text);
                    if (afterStart) {
                        row.append('>');
                    }
                    String name = xml.getLocalName();
                    startTag(row, name, true, depth == 0);
                    element = depth == 1 ? name : null; // MariaDB's reader reads the row's children's text only
                    fieldName = name.equals("field") ? xml.getAttributeValue(null, "name") : null;
                    afterStart = true;
                    depth++;
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    value(element, fieldName, text);
                    element = null;
                    if (afterStart) {
                        row.append(" />");
                    } else {
                        row.append("</").append(xml.getLocalName()).append('>');
                    }
                    afterStart = false;
                    if (--depth == 0) {
                        selfClosed = row.charAt(row.length() - 1) == '>' && row.charAt(row.length() - 2) == '/';
                        row.append('\n');
                        if (key == null && keyColumn != null) {
                            for (int i = open.size() - 1; i >= 0 && key == null; i--) {
                                key = attribute(open.get(i), keyColumn);
                            }
                        }
                        return;
                    }
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.SPACE -> {
                    if (afterStart) {
                        row.append('>');
                        afterStart = false;
                    }
                    String t = xml.getText();
                    if (source.carriageReturn && t.indexOf('\n') >= 0 && !t.isBlank()) {
                        throw refused("a line break in a value and a carriage return (XML reads CR LF as LF, MariaDB's reader keeps the CR)");
                    }
                    escape(row, t);
                    if (element != null) {
                        text.append(t);
                    }
                }
                default -> { } // comments and processing instructions: MariaDB skips them too
            }
            if (!xml.hasNext()) {
                throw new XMLStreamException("the file ends inside a row");
            }
            event = xml.next();
            check(event);
        }
    }

    /** An element's first text, once complete: a value of the element's name, or of {@code <field name>}'s. */
    private void value(String element, String fieldName, StringBuilder text) {
        if (element != null && keyColumn != null && !text.isEmpty()) {
            String name = fieldName != null ? fieldName : element;
            if (name.equals(keyColumn)) {
                key = text.toString();
            }
        }
        text.setLength(0);
    }

    /**
     * {@code <name a="v" ...} (without the closing '>' when {@code inRow}), attribute values escaped;
     * the key taken from one when {@code rowTag}: MariaDB's reader ignores the attributes of a row's children.
     */
    private void startTag(StringBuilder out, String name, boolean inRow, boolean rowTag) {
        out.append('<').append(name);
        for (int i = 0; i < xml.getAttributeCount(); i++) {
            String attribute = xml.getAttributeLocalName(i);
            String prefix = xml.getAttributePrefix(i);
            if (prefix != null && !prefix.isEmpty()) {
                attribute = prefix + ":" + attribute;
            }
            String value = xml.getAttributeValue(i);
            out.append(' ').append(attribute).append("=\"");
            escape(out, value);
            out.append('"');
            boolean fieldName = name.equals("field") && attribute.equals("name");
            if (rowTag && keyColumn != null && !fieldName && attribute.equals(keyColumn) && !value.isEmpty()) {
                key = value;
            }
        }
        if (!inRow) {
            out.append(">\n");
        }
    }

    private String attribute(Ancestor a, String name) {
        // the start tag as written: name="value" pairs, values escaped by escape()
        String tag = new String(a.startTag(), StandardCharsets.ISO_8859_1);
        String look = " " + name + "=\"";
        int at = tag.lastIndexOf(look);
        if (at < 0) {
            return null;
        }
        int from = at + look.length();
        String raw = tag.substring(from, tag.indexOf('"', from));
        String value = raw.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
        return value.isEmpty() ? null : value;
    }

    /** The entities MariaDB's reader decodes (my_xml_entity_to_char): nothing else is escaped. */
    private static void escape(StringBuilder out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(c);
            }
        }
    }

    private void check(int event) throws XMLStreamException {
        if (event == XMLStreamConstants.DTD) {
            throw refused("a DTD (<!DOCTYPE ...>)");
        }
        if (event == XMLStreamConstants.CDATA || source.cdata) {
            throw refused("a CDATA section (MariaDB's reader does not read it as text)");
        }
        if (event == XMLStreamConstants.ENTITY_REFERENCE) {
            throw refused("an entity reference &" + xml.getLocalName() + "; (MariaDB's reader keeps it as written)");
        }
        if (source.attributeWhiteSpace) {
            throw refused("a tab, carriage return or line break inside an attribute value (XML reads it as a space, MariaDB's reader keeps it)");
        }
        if (source.characterReference) {
            throw refused("a character reference &#...; (MariaDB's reader keeps it as written)");
        }
    }

    private static ShardwiseException refused(String what) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, "LOAD XML of a file with " + what);
    }

    private static ShardwiseException malformed(XMLStreamException e) {
        if (e.getNestedException() instanceof ShardwiseException s) {
            return s;
        }
        if (e.getNestedException() instanceof IOException io) {
            return new ShardwiseException(io, ErrorCode.BACKEND_ERROR, "Error reading the LOAD XML LOCAL file: " + io.getMessage());
        }
        String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNumber() + ", column "
                + e.getLocation().getColumnNumber();
        String message = e.getMessage() == null ? "" : e.getMessage().replaceFirst("(?s)^ParseError at \\[row,col\\]:\\[\\d+,\\d+\\]\\s*Message:\\s*", "");
        return new ShardwiseException(ErrorCode.UNSUPPORTED, "LOAD XML of a file that is not well-formed XML" + where + " (" + message
                + "; MariaDB would load the rows its reader finds)");
    }

    /**
     * The file's bytes as chars one for one (ISO-8859-1), noting what MariaDB's reader reads
     * otherwise than an XML parser: {@code &#} and {@code <![CDATA[} anywhere in the file, a carriage
     * return, and a tab, CR or LF inside a quoted attribute value (XML normalizes it to a space, MariaDB
     * keeps the byte). Markup is followed exactly for a well-formed file (text never holds a raw
     * {@code <}, an attribute value neither; comments and processing instructions are skipped to their
     * end); a malformed file is refused anyway, and {@code <!DOCTYPE} / CDATA are read as tags, on the
     * safe side (a refusal, never a miss).
     */
    private static final class SniffingReader extends Reader {
        private static final char[] CDATA = "<![CDATA[".toCharArray();
        private static final int TEXT = 0, LT = 1, TAG = 2, QUOTED = 3, PI = 4, PI_QUESTION = 5, BANG = 6, BANG_DASH = 7, COMMENT = 8;
        private final InputStream in;
        private final byte[] bytes = new byte[16 * 1024];
        boolean characterReference;
        boolean cdata;
        boolean carriageReturn;
        boolean attributeWhiteSpace;
        private boolean ampersand;
        private int cdataMatched;
        private int state = TEXT;
        private char quote;
        private int dashes;

        SniffingReader(InputStream in) {
            this.in = in;
        }

        @Override
        public int read(char[] cbuf, int off, int len) throws IOException {
            int n = in.read(bytes, 0, Math.min(len, bytes.length));
            if (n <= 0) {
                return n == 0 ? 0 : -1;
            }
            for (int i = 0; i < n; i++) {
                char c = (char) (bytes[i] & 0xFF);
                cbuf[off + i] = c;
                characterReference |= ampersand && c == '#';
                ampersand = c == '&';
                carriageReturn |= c == '\r';
                cdataMatched = c == CDATA[cdataMatched] ? cdataMatched + 1 : c == '<' ? 1 : 0;
                if (cdataMatched == CDATA.length) {
                    cdata = true;
                    cdataMatched = 0;
                }
                markup(c);
            }
            return n;
        }

        /** Follows text, tags, quoted attribute values, comments and processing instructions. */
        private void markup(char c) {
            switch (state) {
                case TEXT -> state = c == '<' ? LT : TEXT;
                case LT -> {
                    if (c == '?') {
                        state = PI;
                    } else if (c == '!') {
                        state = BANG;
                    } else {
                        state = TAG;
                        markup(c);
                    }
                }
                case TAG -> {
                    if (c == '"' || c == '\'') {
                        quote = c;
                        state = QUOTED;
                    } else if (c == '>') {
                        state = TEXT;
                    }
                }
                case QUOTED -> {
                    if (c == quote) {
                        state = TAG;
                    } else if (c == '\t' || c == '\r' || c == '\n') {
                        attributeWhiteSpace = true;
                    }
                }
                case PI -> state = c == '?' ? PI_QUESTION : PI;
                case PI_QUESTION -> state = c == '>' ? TEXT : c == '?' ? PI_QUESTION : PI;
                case BANG -> {
                    state = c == '-' ? BANG_DASH : TAG;
                    if (state == TAG) {
                        markup(c);
                    }
                }
                case BANG_DASH -> {
                    if (c == '-') {
                        state = COMMENT;
                        dashes = 0;
                    } else {
                        state = TAG;
                        markup(c);
                    }
                }
                case COMMENT -> {
                    if (c == '>' && dashes >= 2) {
                        state = TEXT;
                    }
                    dashes = c == '-' ? dashes + 1 : 0;
                }
                default -> throw new IllegalStateException();
            }
        }

        @Override
        public void close() {
            // the stream is the caller's to close
        }
    }
}
