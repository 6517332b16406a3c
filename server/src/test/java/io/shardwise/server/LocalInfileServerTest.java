package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The LOCAL INFILE exchange packet by packet, compared with the same raw client talking straight to
 * the unsharded database: the 0xFB request and its sequence id, the file in packets split anywhere
 * (mid-row too), the empty terminator, the OK after it (its sequence id, counts and info); a client
 * without CLIENT_LOCAL_FILES gets the backend family's error; the connection serves on after both.
 */
class LocalInfileServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("infile");

    private static final String LOAD = "LOAD DATA LOCAL INFILE 'countries.csv' IGNORE INTO TABLE countries FIELDS TERMINATED BY ','";

    @Test
    void theFileTravelsInPacketsAndTheAnswerFollowsTheEmptyOne() throws IOException {
        List<String> expected;
        try (RawClient c = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN)) {
            expected = run(c);
        }
        List<String> actual;
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            actual = run(c);
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    @Test
    void aClientWithoutLocalFilesGetsTheBackendsError() throws IOException {
        Capabilities without = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.LOCAL_FILES);
        List<String> expected;
        try (RawClient c = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                NativePassword.PLUGIN, without)) {
            expected = refused(c);
        }
        List<String> actual;
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, without)) {
            actual = refused(c);
        }
        assertEquals(expected, actual);
    }

    private static List<String> refused(RawClient c) throws IOException {
        List<String> out = new ArrayList<>();
        c.command(0x03, LOAD);
        RawClient.Reply r = c.read();
        ErrPacket err = r.as(ErrPacket::decode);
        out.add("seq " + r.sequenceId() + " ERR " + err.errno() + " " + err.sqlState() + " " + err.message());
        c.command(0x03, "SELECT 1");
        out.add("then header " + Integer.toHexString(c.read().header()));
        return out;
    }

    private static List<String> run(RawClient c) throws IOException {
        List<String> out = new ArrayList<>();
        c.command(0x03, LOAD);
        RawClient.Reply request = c.read();
        out.add("request seq " + request.sequenceId() + " header " + Integer.toHexString(request.header()) + " "
                + new String(request.payload(), 1, request.payload().length - 1, StandardCharsets.UTF_8));
        String[] parts = {"Q1,Qo", "ne\nQ2,Q", "two\nQ3\nDE,Germany\n", "Q4,four"};
        int seq = request.sequenceId() + 1;
        for (String part : parts) {
            c.send(seq++, part.getBytes(StandardCharsets.UTF_8));
        }
        c.send(seq, new byte[0]);
        RawClient.Reply answer = c.read();
        if (answer.header() == ErrPacket.HEADER) {
            out.add("seq " + answer.sequenceId() + " ERR " + answer.as(ErrPacket::decode).errno());
        } else {
            OkPacket ok = answer.as(OkPacket::decode);
            out.add("seq " + answer.sequenceId() + " OK affected=" + ok.affectedRows() + " warnings=" + ok.warnings() + " info=" + ok.info());
        }
        c.command(0x03, "DELETE FROM countries WHERE code LIKE 'Q%'");
        out.add("then header " + Integer.toHexString(c.read().header()));
        return out;
    }
}
