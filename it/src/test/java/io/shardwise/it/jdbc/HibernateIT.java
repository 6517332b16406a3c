package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hibernate ORM over the Shardwise driver against Hibernate over Connector/J on the unsharded
 * database. On the sharded side the id of {@code orders} comes from the configuration's snowflake
 * generator (mapped as IDENTITY: Hibernate omits it and reads getGeneratedKeys); the unsharded
 * database has no generator, so there the same entities are persisted with those ids assigned. The
 * two sides then run the same steps: find by the sharding key, update, delete, and a grouped JPQL
 * query that scatters; every step's rows must agree.
 */
class HibernateIT {
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    /** The columns of {@code orders}; the sharding key is not updatable, as befits one. */
    @MappedSuperclass
    public abstract static class OrderColumns {
        @Column(name = "user_id", nullable = false, updatable = false)
        public long userId;
        @Column(name = "status")
        public String status;
        @Column(name = "amount", precision = 10, scale = 2)
        public BigDecimal amount;
        @Column(name = "created_at", nullable = false)
        public LocalDateTime createdAt;

        abstract Long id();

        void fill(long user, String s, String a) {
            userId = user;
            status = s;
            amount = new BigDecimal(a);
            createdAt = LocalDateTime.of(2025, 7, 1, 12, 0);
        }

        @Override
        public String toString() {
            return id() + " " + userId + " " + status + " " + amount + " " + createdAt;
        }
    }

    @Entity(name = "GeneratedOrder")
    @Table(name = "orders")
    public static class GeneratedOrder extends OrderColumns {
        @Id
        @GeneratedValue(strategy = GenerationType.IDENTITY)
        @Column(name = "order_id")
        public Long orderId;

        @Override
        Long id() {
            return orderId;
        }
    }

    @Entity(name = "AssignedOrder")
    @Table(name = "orders")
    public static class AssignedOrder extends OrderColumns {
        @Id
        @Column(name = "order_id")
        public Long orderId;

        @Override
        Long id() {
            return orderId;
        }
    }

    private static SessionFactory sessionFactory(String url, String user, String password, Class<?> entity) {
        return new Configuration()
                .addAnnotatedClass(entity)
                .setProperty("hibernate.connection.url", url)
                .setProperty("hibernate.connection.username", user)
                .setProperty("hibernate.connection.password", password)
                .setProperty("hibernate.connection.pool_size", "2")
                .setProperty("hibernate.hbm2ddl.auto", "none")
                // Connector/J's getSQLKeywords fails on MariaDB 11.4 (1054), and Shardwise passes that on,
                // so Hibernate cannot read JDBC metadata there through either driver: name the dialect.
                .setProperty("hibernate.dialect", "org.hibernate.dialect.MySQLDialect")
                .buildSessionFactory();
    }

    @Test
    void entitiesWithSnowflakeIdsLiveAndDieAsOnOneDatabase() {
        long[] users = {970001, 970002, 970003};
        String[] amounts = {"10.50", "20.25", "30.00"};
        List<Long> ids = new ArrayList<>();
        List<String> actual;
        try (SessionFactory sf = sessionFactory(f.url, "", "", GeneratedOrder.class)) {
            sf.inTransaction(s -> {
                for (int i = 0; i < users.length; i++) {
                    GeneratedOrder o = new GeneratedOrder();
                    o.fill(users[i], "new", amounts[i]);
                    s.persist(o);
                    assertNotNull(o.orderId, "the snowflake id came back through getGeneratedKeys");
                    ids.add(o.orderId);
                }
            });
            assertEquals(3, ids.stream().distinct().count());
            assertTrue(ids.getFirst() > 1L << 40, "a snowflake, not a small sequence: " + ids.getFirst());
            actual = steps(sf, GeneratedOrder.class, "GeneratedOrder", users);
        }
        List<String> expected;
        try (SessionFactory sf = sessionFactory(f.server.jdbcUrl(f.whole), f.server.user(), f.server.password(), AssignedOrder.class)) {
            sf.inTransaction(s -> {
                for (int i = 0; i < users.length; i++) {
                    AssignedOrder o = new AssignedOrder();
                    o.orderId = ids.get(i);
                    o.fill(users[i], "new", amounts[i]);
                    s.persist(o);
                }
            });
            expected = steps(sf, AssignedOrder.class, "AssignedOrder", users);
        }
        assertEquals(expected, actual);
        assertTrue(actual.getFirst().contains(" 970001 new 10.50 "), "found the persisted row by its sharding key: " + actual.getFirst());
    }

    /** Find by the sharding key, update, delete, and a scattering JPQL aggregate; what each step saw. */
    private static <T extends OrderColumns> List<String> steps(SessionFactory sf, Class<T> type, String entity, long[] users) {
        List<String> out = new ArrayList<>();
        Function<Long, List<T>> byUser = user -> sf.fromTransaction(s -> s.createSelectionQuery(
                "from " + entity + " o where o.userId = :u order by o.id", type).setParameter("u", user).getResultList());
        for (long user : users) {
            out.add("found " + byUser.apply(user));
        }
        sf.inTransaction(s -> {
            T o = byUser.apply(users[0]).getFirst();
            T managed = s.find(type, o.id());
            managed.status = "paid";
            managed.amount = managed.amount.add(BigDecimal.ONE);
        });
        out.add("updated " + byUser.apply(users[0]));
        sf.inTransaction(s -> s.remove(s.find(type, byUser.apply(users[1]).getFirst().id())));
        out.add("deleted " + byUser.apply(users[1]));
        assertNull(sf.fromTransaction(s -> s.find(type, -1L)));
        sf.fromTransaction(s -> s.createSelectionQuery("select o.status, count(o), sum(o.amount) from " + entity
                        + " o where o.userId between :a and :b group by o.status order by o.status", Object[].class)
                .setParameter("a", users[0]).setParameter("b", users[2]).getResultList())
                .forEach(r -> out.add("group " + java.util.Arrays.toString(r)));
        // Native, because a JPQL bulk delete renders MySQL's "DELETE alias FROM orders alias" form, which the
        // core refuses (1235) as yet.
        sf.inTransaction(s -> out.add("cleaned " + s.createNativeMutationQuery("DELETE FROM orders WHERE user_id BETWEEN ?1 AND ?2")
                .setParameter(1, users[0]).setParameter(2, users[2]).executeUpdate()));
        return out;
    }
}
