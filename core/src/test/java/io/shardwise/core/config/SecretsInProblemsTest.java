package io.shardwise.core.config;

import static io.shardwise.core.config.ConfigLoaderTest.BASE;
import static io.shardwise.core.config.ConfigLoaderTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A problem report names where a password is wrong, never the password (it ends up in logs and terminals). */
class SecretsInProblemsTest {
    @Test
    void aMalformedReferenceInAPasswordIsReportedWithoutItsText() {
        for (String yaml : List.of(BASE + "server: { users: [ { name: app, password: \"Pw-s3cret${env:\" } ] }\n",
                BASE.replace("ds0: { url: \"jdbc:mysql://h:3306/shop_0\" }",
                        "ds0: { url: \"jdbc:mysql://h:3306/shop_0\", password: \"Pw-s3cret${env:\" }"))) {
            ConfigLoader.Result r = parse(yaml);
            assertEquals(1, r.problems().size(), r.problems()::toString);
            String problem = r.problems().get(0).toString();
            assertTrue(problem.contains("password") && problem.contains("malformed environment reference in the value (not shown: a secret)"),
                    problem);
            assertFalse(problem.contains("s3cret"), problem);
        }
        // elsewhere the text is the help
        assertTrue(parse(BASE + "server: { bind: \"h${env:\" }\n").problems().get(0).toString().contains("'h${env:'"));
    }

    @Test
    void aUrlIsQuotedWithItsCredentialsMasked() {
        assertEquals("mysql://root:***@h:3306/db?user=x&password=***&trustCertificateKeyStorePassword=***&sslMode=DISABLED",
                BackendsParser.withoutCredentials(
                        "mysql://root:pw1@h:3306/db?user=x&password=pw2&trustCertificateKeyStorePassword=pw3&sslMode=DISABLED"));
        ConfigLoader.Result r = parse(BASE.replace("\"jdbc:mysql://h:3306/shop_0\"", "\"mysql://app:Pw-s3cret@h:3306/shop_0\""));
        String problem = r.problems().get(0).toString();
        assertTrue(problem.contains("'mysql://app:***@h:3306/shop_0' is not a MySQL JDBC URL"), problem);
    }
}
