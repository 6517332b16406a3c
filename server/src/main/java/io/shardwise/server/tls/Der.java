package io.shardwise.server.tls;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** The few DER encodings (X.690) a self-signed X.509 certificate needs; each method returns one whole TLV. */
final class Der {
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter GENERALIZED_TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
    /** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
    private static final Instant YEAR_2050 = Instant.parse("2050-01-01T00:00:00Z");

    private Der() {}

    static byte[] sequence(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return tlv(0x01, new byte[] {(byte) (value ? 0xFF : 0)});
    }

    static byte[] nul() {
        return tlv(0x05, new byte[0]);
    }

    static byte[] utf8(String text) {
        return tlv(0x0C, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] octetString(byte[] content) {
        return tlv(0x04, content);
    }

    /** A BIT STRING of whole bytes (no unused bits). */
    static byte[] bitString(byte[] content) {
        return tlv(0x03, concat(new byte[] {0}, content));
    }

    static byte[] time(Instant instant) {
        return instant.isBefore(YEAR_2050)
                ? tlv(0x17, UTC_TIME.format(instant).getBytes(StandardCharsets.US_ASCII))
                : tlv(0x18, GENERALIZED_TIME.format(instant).getBytes(StandardCharsets.US_ASCII));
    }

    /** A context-specific constructed tag, [n] EXPLICIT. */
    static byte[] explicit(int tagNumber, byte[] content) {
        return tlv(0xA0 | tagNumber, content);
    }

    /** A context-specific primitive tag, [n] IMPLICIT (GeneralName's dNSName is [2], iPAddress [7]). */
    static byte[] implicit(int tagNumber, byte[] content) {
        return tlv(0x80 | tagNumber, content);
    }

    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
            for (int g = groups - 1; g >= 0; g--) {
                out.write((int) ((arc >>> (7 * g)) & 0x7F) | (g == 0 ? 0 : 0x80));
            }
        }
        return tlv(0x06, out.toByteArray());
    }

    static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
