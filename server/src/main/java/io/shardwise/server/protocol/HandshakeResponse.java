package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client's answer to the greeting (Protocol::HandshakeResponse41). Which fields are present
 * depends on the client's capabilities, so {@link #decode} reads them first.
 *
 * @param database the schema to connect to, or null when the client named none
 * @param authPlugin the plugin that produced {@code authResponse}, or null when the client sent none
 */
public record HandshakeResponse(Capabilities capabilities, int maxPacketSize, int collation, String user,
                                byte[] authResponse, String database, String authPlugin, Map<String, String> attributes) {
    public HandshakeResponse {
        authResponse = authResponse.clone();
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    @Override
    public byte[] authResponse() {
        return authResponse.clone();
    }

    public static HandshakeResponse decode(ByteBuf in) {
        Wire.need(in, 4 + 4 + 1 + 23);
        int bits = in.readIntLE();
        if ((bits & Capabilities.PROTOCOL_41) == 0) {
            throw new MalformedPacketException("a client without CLIENT_PROTOCOL_41 (MySQL 4.0 and older)");
        }
        int maxPacket = in.readIntLE();
        int collation = in.readUnsignedByte();
        in.skipBytes(19);
        int extended = in.readIntLE(); // a MariaDB client's extended capabilities (it leaves CLIENT_MYSQL unset), else reserved
        Capabilities caps = new Capabilities(bits, (bits & Capabilities.CLIENT_MYSQL) == 0 ? extended : 0);
        String user = Wire.readNulTerminated(in);
        byte[] auth;
        if (caps.sendsLenencAuthResponse()) {
            auth = Wire.readLenencBytes(in);
        } else if (caps.sendsLengthPrefixedAuthResponse()) {
            Wire.need(in, 1);
            int length = in.readUnsignedByte();
            Wire.need(in, length);
            auth = new byte[length];
            in.readBytes(auth);
        } else {
            auth = Wire.readNulTerminated(in).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        String database = caps.namesSchemaAtConnect() && in.isReadable() ? Wire.readNulTerminated(in) : null;
        String plugin = caps.namesAuthPlugin() && in.isReadable() ? Wire.readNulTerminated(in) : null;
        Map<String, String> attributes = new LinkedHashMap<>();
        if (caps.sendsConnectAttributes() && in.isReadable()) {
            long length = Wire.readLenenc(in);
            Wire.need(in, (int) length);
            ByteBuf attrs = in.readSlice((int) length);
            while (attrs.isReadable()) {
                attributes.put(Wire.readLenencString(attrs), Wire.readLenencString(attrs));
            }
        }
        return new HandshakeResponse(caps, maxPacket, collation, user, auth,
                database == null || database.isEmpty() ? null : database, plugin, attributes);
    }

    /** Writes the response as a client does (for tests and tools); honours the lenenc and db capabilities. */
    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(128);
        out.writeIntLE(capabilities.bits()).writeIntLE(maxPacketSize).writeByte(collation).writeZero(19)
                .writeIntLE(capabilities.mariaDbExtended() ? capabilities.extended() : 0);
        Wire.writeNulTerminated(out, user);
        if (capabilities.sendsLenencAuthResponse()) {
            Wire.writeLenenc(out, authResponse);
        } else {
            out.writeByte(authResponse.length).writeBytes(authResponse);
        }
        if (capabilities.namesSchemaAtConnect()) {
            Wire.writeNulTerminated(out, database == null ? "" : database);
        }
        if (capabilities.namesAuthPlugin()) {
            Wire.writeNulTerminated(out, authPlugin == null ? "" : authPlugin);
        }
        if (capabilities.sendsConnectAttributes()) {
            ByteBuf attrs = alloc.buffer();
            try {
                attributes.forEach((k, v) -> {
                    Wire.writeLenenc(attrs, k);
                    Wire.writeLenenc(attrs, v);
                });
                Wire.writeLenenc(out, attrs.readableBytes());
                out.writeBytes(attrs);
            } finally {
                attrs.release();
            }
        }
        return out;
    }
}
